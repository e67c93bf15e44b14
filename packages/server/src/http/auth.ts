// Who is asking: the admin token or a tenant API key (`Authorization: Bearer …`), and what each may reach.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fail, type ApiKeyRecord, type Store } from '@hookline/core';
import type { FastifyRequest } from 'fastify';

export type Principal = { kind: 'admin' } | { kind: 'tenant'; tenantId: string; keyId: string };

/** Per route: `public` needs nothing, `tenant` admits the admin and the key of the route's tenant, `admin` only the admin. */
export type AuthRule = 'public' | 'tenant' | 'admin';

export const API_KEY_PREFIX = 'hk_live_';

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A new key: the plaintext is shown once; the store keeps the sha256 and a short prefix for listings. */
export function generateApiKey(): { key: string; hash: string; prefix: string } {
  const key = API_KEY_PREFIX + randomBytes(24).toString('base64url');
  return { key, hash: hashApiKey(key), prefix: key.slice(0, API_KEY_PREFIX.length + 6) };
}

function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null;
}

/**
 * What authentication reads from the store on every request (an API key by hash, whether a tenant exists),
 * remembered for `ttlMs`: without it each request made two extra trips to the store. Revoking a key or deleting a
 * tenant in this process forgets everything at once; another process (a separate api role) sees it within `ttlMs`,
 * like the fan-out endpoint cache. Only positive answers are kept, so a tenant or key created anywhere works at once.
 */
/** The one read-only port authentication keeps on the store: a key by its hash, a tenant by id. */
export type AuthReads = Pick<Store, 'findApiKeyByHash' | 'getTenant'>;

export class AuthLookups {
  readonly #keys = new Map<string, { until: number; key: ApiKeyRecord }>();
  readonly #tenants = new Map<string, number>();
  /** Bumped by forget(): a lookup that started before a revocation must not cache what it read. */
  #generation = 0;

  constructor(
    private readonly store: AuthReads,
    private readonly ttlMs = 1000,
    private readonly now: () => number = () => performance.now(),
    private readonly maxEntries = 10_000,
  ) {}

  async apiKey(hash: string): Promise<ApiKeyRecord | null> {
    const hit = this.#keys.get(hash);
    if (hit && hit.until > this.now()) return hit.key;
    const generation = this.#generation;
    const key = await this.store.findApiKeyByHash(hash);
    if (key && key.revokedAt === null && generation === this.#generation) this.#remember(this.#keys, hash, { until: this.now() + this.ttlMs, key });
    return key;
  }

  async tenantExists(id: string): Promise<boolean> {
    const until = this.#tenants.get(id);
    if (until !== undefined && until > this.now()) return true;
    const generation = this.#generation;
    const exists = (await this.store.getTenant(id)) !== null;
    if (exists && generation === this.#generation) this.#remember(this.#tenants, id, this.now() + this.ttlMs);
    return exists;
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

export async function authenticate(lookups: AuthLookups, adminTokenHash: Buffer, header: string | undefined): Promise<Principal | null> {
  const token = bearer(header);
  if (!token) return null;
  // Hash both sides so the comparison is constant-time and of equal length whatever was sent.
  const presented = createHash('sha256').update(token, 'utf8').digest();
  if (presented.length === adminTokenHash.length && timingSafeEqual(presented, adminTokenHash)) return { kind: 'admin' };
  if (!token.startsWith(API_KEY_PREFIX)) return null;
  // Lookup by hash: the index compares digests, so the time taken reveals nothing about the key.
  const key = await lookups.apiKey(presented.toString('hex'));
  if (!key || key.revokedAt !== null) return null;
  return { kind: 'tenant', tenantId: key.tenantId, keyId: key.id };
}

/**
 * Checks the principal against the route's rule and its `:tenant` param. Another tenant's id answers exactly like
 * an unknown one (404 tenant_not_found), before any admin-only check, so a key learns nothing about other tenants.
 */
export async function authorize(lookups: AuthLookups, principal: Principal, rule: AuthRule, req: FastifyRequest): Promise<void> {
  const tenant = (req.params as Record<string, string> | undefined)?.tenant;
  if (tenant !== undefined) {
    if (principal.kind === 'tenant' && principal.tenantId !== tenant) throw fail('tenant_not_found');
    if (!(await lookups.tenantExists(tenant))) throw fail('tenant_not_found');
  }
  if (rule === 'admin' && principal.kind !== 'admin') throw fail('forbidden');
}
