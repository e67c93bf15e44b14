// The catalog part's SQL: settings, tenants, API keys, portal links, endpoints, secrets, event types (an endpoint
// patch: endpoint-patch.ts).
import type { Endpoint, Environment, Tenant } from '../../domain.ts';
import { page } from '../listing.ts';
import type { Page } from '../page.ts';
import type { StoreScope } from '../store-scope.ts';
import {
  apiKeyFromRow,
  apiKeyToRow,
  eventTypeFromRow,
  secretFromRow,
  tenantFromRow,
  tenantLimitsToRow,
  tenantToRow,
} from './catalog-rows.ts';
import type {
  ApiKeyRecord,
  EndpointPatch,
  EventTypeRow,
  NewTenant,
  SealedSecret,
  StoredEndpoint,
  TenantPatch,
  TenantUsageRow,
} from './catalog-store.ts';
import { writeEndpointPatch } from './endpoint-patch.ts';
import { endpointFromRow, endpointOptionsToRow, endpointToRow } from './endpoint-rows.ts';

export async function getSetting({ db }: StoreScope, key: string): Promise<string | null> {
  const [r] = await db.all('get-setting', { key });
  return r ? r.value : null;
}
export async function setSetting({ db }: StoreScope, key: string, value: string): Promise<void> {
  await db.run('set-setting', { key, value });
}

// tenants
export async function createTenant({ db }: StoreScope, tenant: NewTenant): Promise<void> {
  await db.run('insert-tenant', tenantToRow(tenant));
}
export async function getTenant({ db }: StoreScope, id: string): Promise<Tenant | null> {
  const [r] = await db.all('get-tenant', { id });
  return r ? tenantFromRow(r) : null;
}
export async function listTenants(
  { db }: StoreScope,
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
  return page(rs.map(tenantFromRow), limit);
}
export function updateTenant({ db }: StoreScope, id: string, patch: TenantPatch, now: number): Promise<Tenant | null> {
  return db.transaction(async (tx) => {
    const [r] = await tx.all('get-tenant', { id });
    if (!r) return null;
    const cur = tenantFromRow(r);
    // The environment is never patched, whatever a caller's object holds (docs/rules.md#environments).
    const next: Tenant = { ...cur, ...patch, id, environment: cur.environment, updatedAt: now };
    const row = tenantToRow(next);
    await tx.run('update-tenant', { ...row, now });
    if (patch.limits) await tx.run('set-tenant-limits', { id, ...tenantLimitsToRow(next.limits) });
    return next;
  });
}
/** Its rows go, and with them any lease the queue holds in memory on its deliveries. */
export async function deleteTenant({ db, leases }: StoreScope, id: string): Promise<boolean> {
  const gone = (await db.run('delete-tenant', { id })) > 0;
  if (gone) leases.forget({ tenantId: id });
  return gone;
}

// api keys
export async function createApiKey({ db }: StoreScope, key: ApiKeyRecord): Promise<void> {
  await db.run('insert-api-key', apiKeyToRow(key));
}
export async function listApiKeys({ db }: StoreScope, tenantId: string): Promise<ApiKeyRecord[]> {
  return (await db.all('list-api-keys', { tenant_id: tenantId })).map(apiKeyFromRow);
}
export async function touchApiKey({ db }: StoreScope, id: string, now: number, granularityMs: number): Promise<void> {
  await db.run('touch-api-key', { id, now, recorded_before: now - granularityMs });
}
export async function revokeApiKey({ db }: StoreScope, tenantId: string, id: string, now: number): Promise<boolean> {
  return (await db.run('revoke-api-key', { tenant_id: tenantId, id, now })) > 0;
}
export async function findApiKeyByHash({ db }: StoreScope, hash: string): Promise<ApiKeyRecord | null> {
  const [r] = await db.all('find-api-key', { hash });
  return r ? apiKeyFromRow(r) : null;
}

// console portal links
export async function createPortalLink(
  { db }: StoreScope,
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
export async function consumePortalLink({ db }: StoreScope, hash: string, now: number): Promise<string | null> {
  const [r] = await db.all('consume-portal-link', { hash, now });
  return r ? String(r.tenant_id) : null;
}

// endpoints
export function createEndpoint(
  { db }: StoreScope,
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
    await tx.run('insert-endpoint', endpointToRow(endpoint));
    await tx.run('set-endpoint-options', endpointOptionsToRow(endpoint));
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
export async function countTenantEndpoints({ db }: StoreScope, tenantId: string): Promise<number> {
  const [c] = await db.all('count-tenant-endpoints', { tenant_id: tenantId });
  return Number(c.n);
}
export async function getTenantUsage(
  { db }: StoreScope,
  tenantId: string,
  day: number,
): Promise<TenantUsageRow | null> {
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
export async function getEndpoint({ db }: StoreScope, tenantId: string, id: string): Promise<StoredEndpoint | null> {
  const [r] = await db.all('get-endpoint', { tenant_id: tenantId, id });
  return r ? endpointFromRow(r) : null;
}
export async function listEndpoints(
  { db }: StoreScope,
  tenantId: string,
  cursor: string | null,
  limit: number,
): Promise<Page<Endpoint>> {
  const rs = await db.all('list-endpoints', { tenant_id: tenantId, after: cursor ?? '', limit: limit + 1 });
  return page(
    rs.map((r) => endpointFromRow(r)),
    limit,
  );
}
export async function listTenantEndpoints({ db }: StoreScope, tenantId: string): Promise<Endpoint[]> {
  return (await db.all('list-tenant-endpoints', { tenant_id: tenantId })).map((r) => endpointFromRow(r));
}
export function updateEndpoint(
  { db }: StoreScope,
  tenantId: string,
  id: string,
  patch: EndpointPatch,
  now: number,
): Promise<StoredEndpoint | null> {
  return db.transaction((tx) => writeEndpointPatch(tx, tenantId, id, patch, now));
}
export async function deleteEndpoint({ db, leases }: StoreScope, tenantId: string, id: string): Promise<boolean> {
  const gone = (await db.run('delete-endpoint', { tenant_id: tenantId, id })) > 0;
  if (gone) leases.forget({ endpointId: id });
  return gone;
}
export async function listSecrets({ db }: StoreScope, endpointId: string): Promise<SealedSecret[]> {
  return (await db.all('list-secrets', { endpoint_id: endpointId })).map(secretFromRow);
}
export async function rotateSecret(
  { db }: StoreScope,
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
export async function putEventType({ db }: StoreScope, row: EventTypeRow): Promise<void> {
  await db.run('put-event-type', {
    name: row.name,
    description: row.description,
    definition: JSON.stringify(row.definition),
    updated_at: row.updatedAt,
  });
}
export async function getEventType({ db }: StoreScope, name: string): Promise<EventTypeRow | null> {
  const [r] = await db.all('get-event-type', { name });
  return r ? eventTypeFromRow(r) : null;
}
export async function listEventTypes({ db }: StoreScope): Promise<EventTypeRow[]> {
  return (await db.all('list-event-types')).map(eventTypeFromRow);
}
