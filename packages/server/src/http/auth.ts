// Who is asking: the admin token or a tenant API key (`Authorization: Bearer …`), and what each may reach.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { fail, type Store } from '@hookline/core';
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

export async function authenticate(store: Store, adminTokenHash: Buffer, header: string | undefined): Promise<Principal | null> {
  const token = bearer(header);
  if (!token) return null;
  // Hash both sides so the comparison is constant-time and of equal length whatever was sent.
  const presented = createHash('sha256').update(token, 'utf8').digest();
  if (presented.length === adminTokenHash.length && timingSafeEqual(presented, adminTokenHash)) return { kind: 'admin' };
  if (!token.startsWith(API_KEY_PREFIX)) return null;
  // Lookup by hash: the index compares digests, so the time taken reveals nothing about the key.
  const key = await store.findApiKeyByHash(presented.toString('hex'));
  if (!key || key.revokedAt !== null) return null;
  return { kind: 'tenant', tenantId: key.tenantId, keyId: key.id };
}

/**
 * Checks the principal against the route's rule and its `:tenant` param. Another tenant's id answers exactly like
 * an unknown one (404 tenant_not_found), before any admin-only check, so a key learns nothing about other tenants.
 */
export async function authorize(store: Store, principal: Principal, rule: AuthRule, req: FastifyRequest): Promise<void> {
  const tenant = (req.params as Record<string, string> | undefined)?.tenant;
  if (tenant !== undefined) {
    if (principal.kind === 'tenant' && principal.tenantId !== tenant) throw fail('tenant_not_found');
    if (!(await store.getTenant(tenant))) throw fail('tenant_not_found');
  }
  if (rule === 'admin' && principal.kind !== 'admin') throw fail('forbidden');
}
