// Who is asking: the admin token or a tenant API key (`Authorization: Bearer …`), and what each may reach.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { type ApiKeyRecord, type CatalogStore, type Environment, fail } from '@hookline/core';
import type { FastifyRequest } from 'fastify';

export type Principal =
  | { kind: 'admin' }
  | { kind: 'tenant'; tenantId: string; keyId: string; environment: Environment };

/** Per route: `public` needs nothing, `tenant` admits the admin and the key of the route's tenant, `admin` only the admin. */
export type AuthRule = 'public' | 'tenant' | 'admin';

/** A key says which environment its tenant is (docs/rules.md#environments). */
export const API_KEY_PREFIXES: Readonly<Record<Environment, string>> = { test: 'hk_test_', live: 'hk_live_' };

/** The environment a key's prefix names, or null for a token that is no API key. */
export function apiKeyEnvironment(token: string): Environment | null {
  if (token.startsWith(API_KEY_PREFIXES.live)) return 'live';
  if (token.startsWith(API_KEY_PREFIXES.test)) return 'test';
  return null;
}

export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** A new key of a tenant in `environment`: the plaintext is shown once; the store keeps the sha256 and a short prefix for listings. */
export function generateApiKey(environment: Environment): { key: string; hash: string; prefix: string } {
  const head = API_KEY_PREFIXES[environment];
  const key = head + randomBytes(24).toString('base64url');
  return { key, hash: hashApiKey(key), prefix: key.slice(0, head.length + 6) };
}

function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null;
}

/**
 * What authentication reads from the store on every request (an API key by hash, a tenant's environment),
 * remembered for `ttlMs`: without it each request made two extra trips to the store. Revoking a key or deleting a
 * tenant in this process forgets everything at once; another process (a separate api role) sees it within `ttlMs`,
 * like the fan-out endpoint cache. Only positive answers are kept, so a tenant or key created anywhere works at once.
 */
/** The one read-only port authentication keeps on the store: a key by its hash, a tenant by id. */
export type AuthReads = Pick<CatalogStore, 'findApiKeyByHash' | 'getTenant'>;

export class AuthLookups {
  readonly #keys = new Map<string, { until: number; key: ApiKeyRecord }>();
  readonly #tenants = new Map<string, { until: number; environment: Environment }>();
  /** Bumped by forget(): a lookup that started before a revocation must not cache what it read. */
  #generation = 0;

  constructor(
    private readonly store: AuthReads,
    private readonly ttlMs = 1000,
    private readonly now: () => number = () => performance.now(),
    private readonly maxEntries = 10_000,
  ) {}

  /** Told each time a key authenticates a request (KeyUsage records `last_used_at`); nothing by default. */
  keyUsed: (keyId: string) => void = () => {};

  async apiKey(hash: string): Promise<ApiKeyRecord | null> {
    const hit = this.#keys.get(hash);
    if (hit && hit.until > this.now()) return hit.key;
    const generation = this.#generation;
    const key = await this.store.findApiKeyByHash(hash);
    if (key && key.revokedAt === null && generation === this.#generation)
      this.#remember(this.#keys, hash, { until: this.now() + this.ttlMs, key });
    return key;
  }

  /** The tenant's environment, or null when there is no such tenant (the environment never changes, so caching it is exact). */
  async tenantEnvironment(id: string): Promise<Environment | null> {
    const hit = this.#tenants.get(id);
    if (hit && hit.until > this.now()) return hit.environment;
    const generation = this.#generation;
    const tenant = await this.store.getTenant(id);
    if (tenant && generation === this.#generation)
      this.#remember(this.#tenants, id, { until: this.now() + this.ttlMs, environment: tenant.environment });
    return tenant ? tenant.environment : null;
  }

  /** As tenantEnvironment, for a route whose tenant must exist: 404 tenant_not_found when it does not (deleted meanwhile). */
  async environmentOf(id: string): Promise<Environment> {
    const environment = await this.tenantEnvironment(id);
    if (environment === null) throw fail('tenant_not_found');
    return environment;
  }

  async tenantExists(id: string): Promise<boolean> {
    return (await this.tenantEnvironment(id)) !== null;
  }

  /** After a revocation or a deletion: nothing remembered may outlive it. */
  forget(): void {
    this.#generation++;
    this.#keys.clear();
    this.#tenants.clear();
  }

  #remember<V>(map: Map<string, V>, k: string, v: V): void {
    if (map.size >= this.maxEntries) map.clear();
    map.set(k, v);
  }
}

export async function authenticate(
  lookups: AuthLookups,
  adminTokenHash: Buffer,
  header: string | undefined,
): Promise<Principal | null> {
  const token = bearer(header);
  if (!token) return null;
  // Hash both sides so the comparison is constant-time and of equal length whatever was sent. (The one-shot hash: a
  // Hash object per request was most of authentication's cost in the ingest profile.)
  const presented = hash('sha256', token, 'buffer');
  if (presented.length === adminTokenHash.length && timingSafeEqual(presented, adminTokenHash))
    return { kind: 'admin' };
  const environment = apiKeyEnvironment(token);
  if (environment === null) return null;
  // Lookup by hash: the index compares digests, so the time taken reveals nothing about the key.
  const key = await lookups.apiKey(presented.toString('hex'));
  if (!key || key.revokedAt !== null) return null;
  // A key only opens a tenant of the environment it names: a hk_test_ key never reaches a live tenant, nor the reverse.
  // (The tenant's environment is then cached for authorize, which reads it next.)
  if ((await lookups.tenantEnvironment(key.tenantId)) !== environment) return null;
  lookups.keyUsed(key.id);
  return { kind: 'tenant', tenantId: key.tenantId, keyId: key.id, environment };
}

/**
 * Checks the principal against the route's rule and its `:tenant` param. Another tenant's id answers exactly like
 * an unknown one (404 tenant_not_found), before any admin-only check, so a key learns nothing about other tenants.
 */
export async function authorize(
  lookups: AuthLookups,
  principal: Principal,
  rule: AuthRule,
  req: FastifyRequest,
): Promise<void> {
  const tenant = (req.params as Record<string, string> | undefined)?.tenant;
  if (tenant !== undefined) {
    if (principal.kind === 'tenant' && principal.tenantId !== tenant) throw fail('tenant_not_found');
    if (!(await lookups.tenantExists(tenant))) throw fail('tenant_not_found');
  }
  if (rule === 'admin' && principal.kind !== 'admin') throw fail('forbidden');
}
