// The events part's SQL: an accepted batch of events with their deliveries (on PostgreSQL, a batch without ordering
// keys as one multi-row statement per table: postgres-accept.ts), one event read back, and the bounded batch reads an
// event search pages through.
import type { Delivery, EventRecord } from '../../domain.ts';
import { fail } from '../../errors.ts';
import type { LeaseView } from '../queue/lease-view.ts';
import type { SqlDriver, SqlExecutor } from '../sql-driver.ts';
import { admitEvents } from '../tenant-limits.ts';
import { eventFromRow, eventToRow, newDelivery } from './event-rows.ts';
import type { AcceptResult, EventDeliveryStatus, EventScan, IngestLimits, NewEvent } from './event-store.ts';
import { acceptUnnested } from './postgres-accept.ts';

type Row = Record<string, any>;

import { cmp, lockKey } from '../listing.ts';
import type { StoreScope } from '../store-scope.ts';

/** Every event of the batch with its deliveries in one durable transaction; keys locked across processes where several share the database. */
export function acceptEvents(s: StoreScope, batch: NewEvent[], limits?: IngestLimits): Promise<AcceptResult[]> {
  if (s.db.dialect === 'postgres' && !batch.some((ne) => ne.deliveries.some((d) => d.orderingKey !== undefined)))
    return acceptUnnested(s, batch, limits);
  const { db, leases, capsAcrossWorkers: lockKeys } = s;
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
    for (const ne of events) out.push(await acceptOne(tx, leases, ne));
    return admission.finish(tx, out);
  });
}

async function acceptOne(tx: SqlExecutor, leases: LeaseView, ne: NewEvent): Promise<AcceptResult> {
  const ev = ne.event;
  const inserted = await tx.all('insert-event', eventToRow(ev, ne.bodyHash));
  if (inserted.length === 0) {
    const [existing] = await tx.all('find-event', { tenant_id: ev.tenantId, event_id: ev.eventId });
    if (!existing || existing.body_hash !== ne.bodyHash) return { kind: 'conflict', eventId: ev.eventId };
    const deliveries = (await tx.all('event-deliveries', { event_pk: existing.id })).map((r) => leases.delivery(r));
    return { kind: 'existing', event: eventFromRow(existing), deliveries };
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
        newDelivery(ev, d, {
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
    deliveries.push(newDelivery(ev, d));
  }
  return { kind: 'created', event: ev, deliveries };
}

export async function getEvent(
  { db, leases }: StoreScope,
  tenantId: string,
  eventId: string,
): Promise<{ event: EventRecord; deliveries: Delivery[] } | null> {
  const [r] = await db.all('find-event', { tenant_id: tenantId, event_id: eventId });
  if (!r) return null;
  const deliveries = (await db.all('event-deliveries', { event_pk: r.id })).map((d) => leases.delivery(d));
  return { event: eventFromRow(r), deliveries };
}

/** Where a search reads: PostgreSQL's own small pool for the API's searches (statement timeout), else the store's. */
const searchReader = (driver: SqlDriver): SqlExecutor => driver.search ?? driver;

/** A statement the search's timeout cancelled (PostgreSQL 57014) is the catalog's `event_search_timeout`. */
async function searching(read: Promise<Row[]>): Promise<Row[]> {
  try {
    return await read;
  } catch (err) {
    if ((err as { code?: string } | null)?.code === '57014') throw fail('event_search_timeout', {}, { cause: err });
    throw err;
  }
}

export async function scanEvents({ db: driver }: StoreScope, scan: EventScan): Promise<EventRecord[]> {
  const db = searchReader(driver);
  let found: Row[];
  if (scan.order === 'event_id') {
    const params = {
      tenant_id: scan.tenantId,
      from_event_id: scan.fromEventId,
      after_event_id: scan.afterEventId,
      limit: scan.limit,
    };
    found = await searching(db.all('search-events-by-event-id', params));
  } else {
    const params = {
      tenant_id: scan.tenantId,
      to_id: scan.toId,
      after_id: scan.afterId,
      limit: scan.limit,
    };
    found =
      scan.type === null
        ? await searching(db.all('search-events', params))
        : await searching(db.all('search-events-of-type', { ...params, type: scan.type }));
  }
  return found.map(eventFromRow);
}

export async function eventDeliveryStatuses(
  { db: driver, leases }: StoreScope,
  tenantId: string,
  eventPks: string[],
): Promise<EventDeliveryStatus[]> {
  if (eventPks.length === 0) return [];
  const db = searchReader(driver);
  const found = await searching(db.all('deliveries-of-events', { tenant_id: tenantId, event_pks: eventPks }));
  return found.map((r) => ({
    eventPk: r.event_pk,
    deliveryId: r.id,
    endpointId: r.endpoint_id,
    status: leases.status(r.id, r.status),
    attemptCount: Number(r.attempt_count),
  }));
}

export async function countEventsUpTo({ db: driver }: StoreScope, tenantId: string, type: string | null, cap: number) {
  const db = searchReader(driver);
  const [r] =
    type === null
      ? await searching(db.all('count-events-up-to', { tenant_id: tenantId, cap }))
      : await searching(db.all('count-events-of-type-up-to', { tenant_id: tenantId, type, cap }));
  return Number(r?.n ?? 0);
}

export async function eventIdOf({ db: driver }: StoreScope, tenantId: string, id: string): Promise<string | null> {
  const db = searchReader(driver);
  const [r] = await searching(db.all('event-id-of', { tenant_id: tenantId, id }));
  return r ? (r.event_id as string) : null;
}
