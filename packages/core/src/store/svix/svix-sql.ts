// The Svix part's SQL (svix-store.ts): uids, metadata, channels, message labels and list, resend deliveries,
// idempotency records.
import type { Delivery, Endpoint, EventRecord, Tenant } from '../../domain.ts';
import { tenantFromRow } from '../catalog/catalog-rows.ts';
import { endpointFromRow } from '../catalog/endpoint-rows.ts';
import { eventFromRow } from '../events/event-rows.ts';
import { page } from '../listing.ts';
import type { Page } from '../page.ts';
import { replayToRow } from '../replays/replay-rows.ts';
import type { ReplayRow } from '../replays/replay-store.ts';
import type { StoreScope } from '../store-scope.ts';
import type { EndpointLabels, IdempotencyRecord, MessageFilter, MessageLabels, TenantLabels } from './svix-store.ts';

const jsonOrNull = (v: unknown): string | null => {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v) && v.length === 0) return null;
  if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) return null;
  return JSON.stringify(v);
};
const parsed = <T>(v: unknown): T | null => (v === null || v === undefined ? null : (JSON.parse(String(v)) as T));

export async function findTenantByUid({ db }: StoreScope, uid: string): Promise<Tenant | null> {
  const [r] = await db.all('find-tenant-by-uid', { uid });
  return r ? tenantFromRow(r) : null;
}

export async function setTenantLabels({ db }: StoreScope, id: string, l: TenantLabels, now: number): Promise<boolean> {
  const n = await db.run('set-tenant-labels', {
    id,
    uid: l.uid,
    metadata: jsonOrNull(l.metadata),
    payload_format: l.payloadFormat,
    app_rate_limit: l.appRateLimit,
    now,
  });
  return n > 0;
}

export async function findEndpointByUid(
  { db }: StoreScope,
  tenantId: string,
  uid: string,
): Promise<(Endpoint & { version: number }) | null> {
  const [r] = await db.all('find-endpoint-by-uid', { tenant_id: tenantId, uid });
  return r ? endpointFromRow(r) : null;
}

export async function setEndpointLabels(
  { db }: StoreScope,
  tenantId: string,
  id: string,
  l: EndpointLabels,
  now: number,
): Promise<boolean> {
  const n = await db.run('set-endpoint-labels', {
    tenant_id: tenantId,
    id,
    uid: l.uid,
    metadata: jsonOrNull(l.metadata),
    channels: jsonOrNull(l.channels),
    now,
  });
  return n > 0;
}

export async function getEventByPk(
  { db, leases }: StoreScope,
  tenantId: string,
  pk: string,
): Promise<{ event: EventRecord; deliveries: Delivery[] } | null> {
  const [r] = await db.all('find-event-by-pk', { tenant_id: tenantId, id: pk });
  if (!r) return null;
  const deliveries = (await db.all('event-deliveries', { event_pk: r.id })).map((d) => leases.delivery(d));
  return { event: eventFromRow(r), deliveries };
}

export async function putMessageLabels(
  { db }: StoreScope,
  eventPk: string,
  tenantId: string,
  l: MessageLabels,
): Promise<void> {
  await db.run('insert-message-labels', {
    event_pk: eventPk,
    tenant_id: tenantId,
    channels: jsonOrNull(l.channels),
    tags: jsonOrNull(l.tags),
  });
}

export async function getMessageLabels({ db }: StoreScope, eventPk: string): Promise<MessageLabels> {
  const [r] = await db.all('get-message-labels', { event_pk: eventPk });
  return { channels: parsed(r?.channels), tags: parsed(r?.tags) };
}

/** LIKE's own characters in a channel name match only themselves (the pattern has no ESCAPE, so they are refused upstream). */
export async function listMessages(
  { db }: StoreScope,
  tenantId: string,
  filter: MessageFilter,
  cursor: string | null,
  limit: number,
): Promise<Page<{ id: string; event: EventRecord } & MessageLabels>> {
  const rs = await db.all('list-messages', {
    tenant_id: tenantId,
    cursor: cursor ?? '',
    event_types: filter.eventTypes?.length ? JSON.stringify(filter.eventTypes) : null,
    channel_like: filter.channel === undefined ? null : `%${JSON.stringify(filter.channel)}%`,
    since: filter.since ?? null,
    until: filter.until ?? null,
    limit: limit + 1,
  });
  return page(
    rs.map((r) => ({
      id: String(r.id),
      event: eventFromRow(r),
      channels: parsed<string[]>(r.label_channels),
      tags: parsed<string[]>(r.label_tags),
    })),
    limit,
  );
}

export function addDelivery(
  { db }: StoreScope,
  replay: ReplayRow,
  eventPk: string,
  id: string,
  now: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [ev] = await tx.all('find-event-by-pk', { tenant_id: replay.tenantId, id: eventPk });
    if (!ev) return false;
    await tx.run('insert-replay', replayToRow({ ...replay, selected: 1 }));
    await tx.run('add-delivery', {
      id,
      tenant_id: replay.tenantId,
      event_pk: eventPk,
      endpoint_id: replay.endpointId,
      replay_id: replay.id,
      now,
    });
    return true;
  });
}

function idempotencyFromRow(r: Record<string, unknown>): IdempotencyRecord {
  return {
    requestHash: String(r.request_hash),
    status: r.status === null || r.status === undefined ? null : Number(r.status),
    body: r.body === null || r.body === undefined ? null : String(r.body),
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
  };
}

export function claimIdempotencyKey(
  { db }: StoreScope,
  scope: string,
  key: string,
  requestHash: string,
  now: number,
  ttlMs: number,
  pendingMs: number,
): Promise<{ kind: 'claimed' } | { kind: 'held'; record: IdempotencyRecord }> {
  return db.transaction(async (tx) => {
    const claim = { scope, key, request_hash: requestHash, now, expires_at: now + ttlMs };
    if ((await tx.run('claim-idempotency-key', claim)) > 0) return { kind: 'claimed' as const };
    const [r] = await tx.all('get-idempotency-key', { scope, key });
    const record = r ? idempotencyFromRow(r) : null;
    const abandoned = record !== null && record.status === null && record.createdAt <= now - pendingMs;
    if (record && record.expiresAt > now && !abandoned) return { kind: 'held' as const, record };
    // Expired, abandoned (or gone meanwhile): the key is free again.
    await tx.run('drop-idempotency-key', { scope, key, before: now + 1 });
    await tx.run('claim-idempotency-key', claim);
    return { kind: 'claimed' as const };
  });
}

export async function getIdempotencyKey(
  { db }: StoreScope,
  scope: string,
  key: string,
): Promise<IdempotencyRecord | null> {
  const [r] = await db.all('get-idempotency-key', { scope, key });
  return r ? idempotencyFromRow(r) : null;
}

export async function finishIdempotencyKey(
  { db }: StoreScope,
  scope: string,
  key: string,
  status: number,
  body: string,
): Promise<void> {
  await db.run('finish-idempotency-key', { scope, key, status, body });
}

export async function dropIdempotencyKey({ db }: StoreScope, scope: string, key: string): Promise<void> {
  await db.run('drop-idempotency-key', { scope, key, before: Number.MAX_SAFE_INTEGER });
}
export * from './message-read-sql.ts';
