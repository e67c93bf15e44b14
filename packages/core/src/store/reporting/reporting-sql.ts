// The reporting part's SQL: deliveries and attempts read back, counts for
// metrics, and per-endpoint stats for the API and console.
import type { Attempt, Delivery, DeliveryStatus, EndpointStatus } from '../../domain.ts';
import { page } from '../listing.ts';
import type { Page } from '../page.ts';
import { attemptFromRow } from '../queue/delivery-rows.ts';
import { moveLeased } from '../queue/lease-view.ts';
import type { StoreScope } from '../store-scope.ts';
import type { DeliveryFilter, EndpointStats } from './reporting-store.ts';

const ALL_STATUSES: DeliveryStatus[] = ['pending', 'delivering', 'held', 'succeeded', 'failed', 'skipped'];

export async function getDelivery({ db, leases }: StoreScope, tenantId: string, id: string): Promise<Delivery | null> {
  const [r] = await db.all('get-delivery', { tenant_id: tenantId, id });
  return r ? leases.delivery(r) : null;
}
export async function listDeliveries(
  { db, leases }: StoreScope,
  f: DeliveryFilter,
  cursor: string | null,
  limit: number,
): Promise<Page<Delivery>> {
  const rs = await db.all('list-deliveries', {
    tenant_id: f.tenantId,
    status: f.status ?? null,
    endpoint_id: f.endpointId ?? null,
    event_type: f.eventType ?? null,
    event_id: f.eventId ?? null,
    since: f.since ?? null,
    until: f.until ?? null,
    before: cursor ?? '~',
    limit: limit + 1,
  });
  return page(
    rs.map((r) => leases.delivery(r)),
    limit,
  );
}
export async function listAttempts({ db }: StoreScope, deliveryId: string): Promise<Attempt[]> {
  return (await db.all('list-attempts', { delivery_id: deliveryId })).map(attemptFromRow);
}
export async function countByStatus({ db, leases }: StoreScope): Promise<Record<DeliveryStatus, number>> {
  const out = Object.fromEntries(ALL_STATUSES.map((s) => [s, 0])) as Record<DeliveryStatus, number>;
  for (const r of await db.all('count-by-status')) out[r.status as DeliveryStatus] = Number(r.n);
  return moveLeased(out, await leases.leasedCounts(db));
}
export async function countQueued({
  db,
  leases,
}: StoreScope): Promise<Record<'pending' | 'delivering' | 'held', number>> {
  const out = { pending: 0, delivering: 0, held: 0 };
  for (const r of await db.all('count-queued')) out[r.status as keyof typeof out] = Number(r.n);
  return moveLeased(out, await leases.leasedCounts(db));
}
export async function countBreakers({ db }: StoreScope): Promise<{ open: number; probing: number }> {
  const out = { open: 0, probing: 0 };
  for (const r of await db.all('count-breakers'))
    if (r.state === 'open' || r.state === 'probing') out[r.state as 'open' | 'probing'] = Number(r.n);
  return out;
}
export async function oldestDueAt({ db }: StoreScope, now: number): Promise<number | null> {
  const [r] = await db.all('oldest-due', { now });
  return r?.at == null ? null : Number(r.at);
}
export async function endpointStats(
  { db, leases }: StoreScope,
  tenantId: string,
  since: number,
  now: number,
): Promise<EndpointStats[]> {
  const sinceMinute = Math.ceil(since / 60_000);
  const rs = await db.all('endpoint-stats', { tenant_id: tenantId, since_minute: sinceMinute, now });
  const stats: EndpointStats[] = rs.map((r) => ({
    endpointId: String(r.endpoint_id),
    endpointStatus: r.endpoint_status as EndpointStatus,
    queued: { pending: Number(r.pending), delivering: Number(r.delivering), held: Number(r.held) },
    oldestDueAt: r.oldest_due_at == null ? null : Number(r.oldest_due_at),
    succeeded: Number(r.succeeded),
    failed: Number(r.failed),
    latencyMsSum: Number(r.latency_ms_sum),
    latencyCount: Number(r.latency_count),
  }));
  const leased = await leases.leasedCounts(db, tenantId);
  if (leased.length === 0) return stats;
  const byEndpoint = new Map(stats.map((s) => [s.endpointId, s]));
  for (const r of leased) {
    const s = byEndpoint.get(r.endpoint_id);
    if (s) moveLeased(s.queued, [r]);
  }
  return stats;
}
export async function deliveriesPerMinute(
  { db }: StoreScope,
  tenantId: string,
  since: number,
): Promise<Array<{ minute: number; succeeded: number; retrying: number; failed: number }>> {
  const rs = await db.all('deliveries-per-minute', { tenant_id: tenantId, since_minute: Math.ceil(since / 60_000) });
  return rs.map((r) => ({
    minute: Number(r.minute),
    succeeded: Number(r.succeeded),
    retrying: Number(r.retried),
    failed: Number(r.failed),
  }));
}
