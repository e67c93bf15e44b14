// The catalog part of SqlStore as functions over the driver: settings, tenants, API keys, portal links, endpoints,
// secrets, event types.
import type { Endpoint, Environment, Tenant } from '../../domain.ts';
import { endIncidentByHand } from '../endpoint-incidents.ts';
import type {
  ApiKeyRecord,
  EndpointPatch,
  EventTypeRow,
  NewTenant,
  SealedSecret,
  TenantPatch,
  TenantUsageRow,
} from '../parts/catalog-store.ts';
import type { Page } from '../parts/page.ts';
import * as rows from '../rows.ts';
import type { SqlDriver, SqlExecutor } from '../sql-driver.ts';
import { page } from './listing.ts';

type StoredEndpoint = Endpoint & { version: number };

export async function getSetting(db: SqlExecutor, key: string): Promise<string | null> {
  const [r] = await db.all('get-setting', { key });
  return r ? r.value : null;
}
export async function setSetting(db: SqlExecutor, key: string, value: string): Promise<void> {
  await db.run('set-setting', { key, value });
}

// tenants
export async function createTenant(db: SqlExecutor, tenant: NewTenant): Promise<void> {
  await db.run('insert-tenant', rows.tenantToRow(tenant));
}
export async function getTenant(db: SqlExecutor, id: string): Promise<Tenant | null> {
  const [r] = await db.all('get-tenant', { id });
  return r ? rows.tenantFromRow(r) : null;
}
export async function listTenants(
  db: SqlExecutor,
  cursor: string | null,
  limit: number,
  filter: { environment?: Environment; newestFirst?: boolean } = {},
): Promise<Page<Tenant>> {
  const rs = filter.newestFirst
    ? await db.all('list-tenants-newest', {
        before: cursor ?? '',
        environment: filter.environment ?? null,
        limit: limit + 1,
      })
    : await db.all('list-tenants', {
        after: cursor ?? '',
        environment: filter.environment ?? null,
        limit: limit + 1,
      });
  return page(rs.map(rows.tenantFromRow), limit);
}
export function updateTenant(db: SqlDriver, id: string, patch: TenantPatch, now: number): Promise<Tenant | null> {
  return db.transaction(async (tx) => {
    const [r] = await tx.all('get-tenant', { id });
    if (!r) return null;
    const cur = rows.tenantFromRow(r);
    // The environment is never patched, whatever a caller's object holds (docs/rules.md#environments).
    const next: Tenant = { ...cur, ...patch, id, environment: cur.environment, updatedAt: now };
    const row = rows.tenantToRow(next);
    await tx.run('update-tenant', { ...row, now });
    if (patch.limits) await tx.run('set-tenant-limits', { id, ...rows.tenantLimitsToRow(next.limits) });
    return next;
  });
}
export async function deleteTenant(db: SqlExecutor, id: string): Promise<boolean> {
  return (await db.run('delete-tenant', { id })) > 0;
}

// api keys
export async function createApiKey(db: SqlExecutor, key: ApiKeyRecord): Promise<void> {
  await db.run('insert-api-key', rows.apiKeyToRow(key));
}
export async function listApiKeys(db: SqlExecutor, tenantId: string): Promise<ApiKeyRecord[]> {
  return (await db.all('list-api-keys', { tenant_id: tenantId })).map(rows.apiKeyFromRow);
}
export async function touchApiKey(db: SqlExecutor, id: string, now: number, granularityMs: number): Promise<void> {
  await db.run('touch-api-key', { id, now, recorded_before: now - granularityMs });
}
export async function revokeApiKey(db: SqlExecutor, tenantId: string, id: string, now: number): Promise<boolean> {
  return (await db.run('revoke-api-key', { tenant_id: tenantId, id, now })) > 0;
}
export async function findApiKeyByHash(db: SqlExecutor, hash: string): Promise<ApiKeyRecord | null> {
  const [r] = await db.all('find-api-key', { hash });
  return r ? rows.apiKeyFromRow(r) : null;
}

// console portal links
export async function createPortalLink(
  db: SqlDriver,
  link: { hash: string; tenantId: string; createdAt: number; expiresAt: number },
  now: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.run('purge-portal-links', { before: now });
    await tx.run('insert-portal-link', {
      hash: link.hash,
      tenant_id: link.tenantId,
      created_at: link.createdAt,
      expires_at: link.expiresAt,
    });
  });
}
export async function consumePortalLink(db: SqlExecutor, hash: string, now: number): Promise<string | null> {
  const [r] = await db.all('consume-portal-link', { hash, now });
  return r ? String(r.tenant_id) : null;
}

// endpoints
export function createEndpoint(
  db: SqlDriver,
  endpoint: Endpoint,
  secret: SealedSecret,
  maxEndpoints: number | null,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (maxEndpoints !== null) {
      await tx.all('lock-tenant-endpoints', { tenant_id: endpoint.tenantId });
      const [c] = await tx.all('count-tenant-endpoints', { tenant_id: endpoint.tenantId });
      if (Number(c.n) >= maxEndpoints) return false;
    }
    await tx.run('insert-endpoint', rows.endpointToRow(endpoint));
    await tx.run('set-endpoint-options', rows.endpointOptionsToRow(endpoint));
    await tx.run('insert-secret', {
      kid: secret.kid,
      endpoint_id: endpoint.id,
      sealed: secret.sealed,
      created_at: secret.createdAt,
      expires_at: secret.expiresAt,
    });
    return true;
  });
}
export async function countTenantEndpoints(db: SqlExecutor, tenantId: string): Promise<number> {
  const [c] = await db.all('count-tenant-endpoints', { tenant_id: tenantId });
  return Number(c.n);
}
export async function getTenantUsage(db: SqlExecutor, tenantId: string, day: number): Promise<TenantUsageRow | null> {
  const [u] = await db.all('get-tenant-usage', { tenant_id: tenantId, day });
  if (!u) return null;
  return {
    events: Number(u.events),
    minuteAt: Number(u.minute_at),
    minuteEvents: Number(u.minute_events),
    prevMinuteEvents: Number(u.prev_minute_events),
    notifiedPercent: Number(u.notified_percent),
  };
}
export async function getEndpoint(db: SqlExecutor, tenantId: string, id: string): Promise<StoredEndpoint | null> {
  const [r] = await db.all('get-endpoint', { tenant_id: tenantId, id });
  return r ? rows.endpointFromRow(r) : null;
}
export async function listEndpoints(
  db: SqlExecutor,
  tenantId: string,
  cursor: string | null,
  limit: number,
): Promise<Page<Endpoint>> {
  const rs = await db.all('list-endpoints', { tenant_id: tenantId, after: cursor ?? '', limit: limit + 1 });
  return page(
    rs.map((r) => rows.endpointFromRow(r)),
    limit,
  );
}
export async function listTenantEndpoints(db: SqlExecutor, tenantId: string): Promise<Endpoint[]> {
  return (await db.all('list-tenant-endpoints', { tenant_id: tenantId })).map((r) => rows.endpointFromRow(r));
}
export function updateEndpoint(
  db: SqlDriver,
  tenantId: string,
  id: string,
  patch: EndpointPatch,
  now: number,
): Promise<StoredEndpoint | null> {
  return db.transaction((tx) => writeEndpointPatch(tx, tenantId, id, patch, now));
}
/** updateEndpoint's writes inside the caller's transaction (reactivateWithCatchUp's too). */
export async function writeEndpointPatch(
  tx: SqlExecutor,
  tenantId: string,
  id: string,
  patch: EndpointPatch,
  now: number,
): Promise<StoredEndpoint | null> {
  const [r] = await tx.all('get-endpoint', { tenant_id: tenantId, id });
  if (!r) return null;
  const cur = rows.endpointFromRow(r);
  const next: StoredEndpoint = { ...cur, updatedAt: now, version: cur.version + 1 };
  if (patch.url !== undefined) next.url = patch.url;
  if (patch.description !== undefined) next.description = patch.description;
  if (patch.eventTypes !== undefined) next.eventTypes = patch.eventTypes;
  if (patch.policy !== undefined) next.policy = patch.policy;
  if (patch.scheme !== undefined) next.scheme = patch.scheme;
  if (patch.timeoutMs !== undefined) next.timeoutMs = patch.timeoutMs;
  if (patch.maxConcurrency !== undefined) next.maxConcurrency = patch.maxConcurrency;
  if (patch.ordering !== undefined) next.ordering = patch.ordering;
  if (patch.orderingOnFailure !== undefined) next.orderingOnFailure = patch.orderingOnFailure;
  if (patch.payloadFilter !== undefined) next.payloadFilter = patch.payloadFilter;
  if (patch.customHeaders !== undefined) next.customHeaders = patch.customHeaders;
  if (patch.rateLimitPerS !== undefined) next.rateLimitPerS = patch.rateLimitPerS;
  if (patch.status !== undefined) next.status = patch.status;
  if (patch.pauseReason !== undefined) next.pauseReason = patch.pauseReason;
  if (next.status !== 'paused') next.pauseReason = null;
  if (patch.clearHealth) {
    next.failingSince = null;
    next.consecutiveFailedEvents = 0;
    if (next.status === 'degraded') next.status = 'active';
  }
  await tx.run('update-endpoint', { ...rows.endpointToRow(next), now });
  // Reactivated by hand, or cleared by a new URL: the endpoint's incident ends here (docs/rules.md#notifications).
  if (cur.status !== 'active' && next.status === 'active') await endIncidentByHand(tx, id, now);
  await tx.run('set-endpoint-options', rows.endpointOptionsToRow(next));
  // The pause triggers of migration 010 keep paused_at; the row read back carries it.
  const [back] = await tx.all('get-endpoint', { tenant_id: tenantId, id });
  return { ...next, pausedAt: rows.endpointFromRow(back).pausedAt };
}
export async function deleteEndpoint(db: SqlExecutor, tenantId: string, id: string): Promise<boolean> {
  return (await db.run('delete-endpoint', { tenant_id: tenantId, id })) > 0;
}
export async function listSecrets(db: SqlExecutor, endpointId: string): Promise<SealedSecret[]> {
  return (await db.all('list-secrets', { endpoint_id: endpointId })).map(rows.secretFromRow);
}
export async function rotateSecret(
  db: SqlDriver,
  endpointId: string,
  secret: SealedSecret,
  retireAt: number,
  now: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.run('retire-secrets', { endpoint_id: endpointId, retire_at: retireAt });
    await tx.run('insert-secret', {
      kid: secret.kid,
      endpoint_id: endpointId,
      sealed: secret.sealed,
      created_at: secret.createdAt,
      expires_at: null,
    });
    await tx.run('bump-endpoint-version', { id: endpointId, now });
  });
}

// event types
export async function putEventType(db: SqlExecutor, row: EventTypeRow): Promise<void> {
  await db.run('put-event-type', {
    name: row.name,
    description: row.description,
    definition: JSON.stringify(row.definition),
    updated_at: row.updatedAt,
  });
}
export async function getEventType(db: SqlExecutor, name: string): Promise<EventTypeRow | null> {
  const [r] = await db.all('get-event-type', { name });
  return r ? rows.eventTypeFromRow(r) : null;
}
export async function listEventTypes(db: SqlExecutor): Promise<EventTypeRow[]> {
  return (await db.all('list-event-types')).map(rows.eventTypeFromRow);
}
