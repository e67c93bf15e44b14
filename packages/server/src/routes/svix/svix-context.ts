// Who may reach which application on /api/v1: the admin token every one, a tenant API key its own (another's answers
// exactly like a missing one); applications and endpoints are named by id or uid.
import { type Endpoint, fail, type Tenant } from '@hookline/core';
import type { FastifyRequest } from 'fastify';
import type { Runtime } from '../../runtime.ts';

/** The application `ref` (id or uid) the caller may reach; 404 tenant_not_found otherwise. */
export async function appFor(rt: Runtime, req: FastifyRequest, ref: string): Promise<Tenant> {
  const t = await rt.engine.tenants.findByIdOrUid(ref);
  const p = req.principal;
  if (!t || !p || (p.kind === 'tenant' && p.tenantId !== t.id)) throw fail('tenant_not_found');
  return t;
}

/** The application's endpoint `ref` (id or uid); 404 endpoint_not_found. */
export async function endpointFor(
  rt: Runtime,
  req: FastifyRequest,
  appRef: string,
  ref: string,
): Promise<{ app: Tenant; endpoint: Endpoint & { version: number } }> {
  const app = await appFor(rt, req, appRef);
  return { app, endpoint: await rt.engine.endpoints.getByIdOrUid(app.id, ref) };
}

/** Only the admin token creates and lists every application. */
export function requireAdmin(req: FastifyRequest): void {
  if (req.principal?.kind !== 'admin') throw fail('forbidden');
}

/** Svix's `limit` (1–250, default 50) and `iterator` query values. */
export function paging(q: Record<string, unknown>): { limit: number; cursor: string | null } {
  const raw = q.limit;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : 50;
  const limit = Math.min(Math.max(n, 1), 250);
  const it = q.iterator;
  return { limit, cursor: typeof it === 'string' && it.length > 0 && it.length <= 64 ? it : null };
}

export type P<K extends string> = { [k in K]: string };
