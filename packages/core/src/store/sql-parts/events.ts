// The events part of SqlStore as functions over the driver: an accepted batch of events with their deliveries, and
// one event read back. PostgresStore overrides the accept with its multi-row form (postgres/postgres-store.ts).
import type { Delivery, EventRecord } from '../../domain.ts';
import type { AcceptResult, IngestLimits, NewEvent } from '../parts/event-store.ts';
import * as rows from '../rows.ts';
import type { SqlDriver, SqlExecutor } from '../sql-driver.ts';
import { admitEvents } from '../tenant-limits.ts';
import { cmp, lockKey } from './listing.ts';

/** Every event of the batch with its deliveries in one durable transaction; `lockKeys`: SqlStore.capsAcrossWorkers. */
export function acceptEvents(
  db: SqlDriver,
  batch: NewEvent[],
  lockKeys: boolean,
  limits?: IngestLimits,
): Promise<AcceptResult[]> {
  return db.transaction(async (tx) => {
    // The tenants' limits first (docs/rules.md#tenant-limits): a refused event is not inserted.
    const admission = await admitEvents(tx, batch, limits);
    const events = admission.events;
    // Ordering keys are numbered under their lock (PostgreSQL: commit order across API processes), every key of the
    // batch first and in one sorted order, so concurrent batches never deadlock (docs/rules.md#ordering-sequence).
    const keys = new Set<string>();
    for (const ne of events)
      for (const d of ne.deliveries) if (d.orderingKey !== undefined) keys.add(`${d.endpointId}\u0000${d.orderingKey}`);
    if (lockKeys) for (const k of [...keys].sort(cmp)) await lockKey(tx, k);
    const out: AcceptResult[] = [];
    for (const ne of events) out.push(await acceptOne(tx, ne));
    return admission.finish(tx, out);
  });
}

async function acceptOne(tx: SqlExecutor, ne: NewEvent): Promise<AcceptResult> {
  const ev = ne.event;
  const inserted = await tx.all('insert-event', rows.eventToRow(ev, ne.bodyHash));
  if (inserted.length === 0) {
    const [existing] = await tx.all('find-event', { tenant_id: ev.tenantId, event_id: ev.eventId });
    if (!existing || existing.body_hash !== ne.bodyHash) return { kind: 'conflict', eventId: ev.eventId };
    const deliveries = (await tx.all('event-deliveries', { event_pk: existing.id })).map(rows.deliveryFromRow);
    return { kind: 'existing', event: rows.eventFromRow(existing), deliveries };
  }
  const deliveries: Delivery[] = [];
  for (const d of ne.deliveries) {
    if (d.orderingKey !== undefined && !d.lease) {
      const [r] = await tx.all('insert-ordered-delivery', {
        id: d.id,
        tenant_id: ev.tenantId,
        event_pk: ev.id,
        endpoint_id: d.endpointId,
        status: d.status,
        is_money: ev.isMoney ? 1 : 0,
        next_attempt_at: d.nextAttemptAt,
        ordering_key: d.orderingKey,
        now: ev.createdAt,
      });
      deliveries.push(
        rows.newDelivery(ev, d, {
          orderingSeq: Number(r.ordering_seq),
          nextAttemptAt: r.next_attempt_at == null ? null : Number(r.next_attempt_at),
        }),
      );
      continue;
    }
    await tx.run('insert-delivery', {
      id: d.id,
      tenant_id: ev.tenantId,
      event_pk: ev.id,
      endpoint_id: d.endpointId,
      status: d.lease ? 'delivering' : d.status,
      is_money: ev.isMoney ? 1 : 0,
      next_attempt_at: d.nextAttemptAt,
      lease_until: d.lease?.until ?? null,
      leased_by: d.lease?.workerId ?? null,
      now: ev.createdAt,
    });
    deliveries.push(rows.newDelivery(ev, d));
  }
  return { kind: 'created', event: ev, deliveries };
}

export async function getEvent(
  db: SqlExecutor,
  tenantId: string,
  eventId: string,
): Promise<{ event: EventRecord; deliveries: Delivery[] } | null> {
  const [r] = await db.all('find-event', { tenant_id: tenantId, event_id: eventId });
  if (!r) return null;
  const deliveries = (await db.all('event-deliveries', { event_pk: r.id })).map(rows.deliveryFromRow);
  return { event: rows.eventFromRow(r), deliveries };
}
