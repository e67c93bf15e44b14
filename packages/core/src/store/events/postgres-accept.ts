// An accepted batch without ordering keys on PostgreSQL: one multi-row (`unnest`) statement per table instead of one
// statement per row. Every round trip of a transaction holds its row locks for longer, and worker processes queue on
// those locks, so fewer round trips is what lets workers scale. Batches with ordering keys take the row-by-row path
// (event-sql.ts: they number each delivery under its key's lock).
import type { StoreScope } from '../store-scope.ts';
import { admitEvents } from '../tenant-limits.ts';
import { eventFromRow, eventToRow, newDelivery } from './event-rows.ts';
import type { AcceptResult, IngestLimits, NewEvent } from './event-store.ts';

export async function acceptUnnested(
  { db, leases }: StoreScope,
  batch: NewEvent[],
  limits?: IngestLimits,
): Promise<AcceptResult[]> {
  if (batch.length === 0) return [];
  return db.transaction(async (tx) => {
    // The tenants' limits first (docs/rules.md#tenant-limits): a refused event is not inserted.
    const admission = await admitEvents(tx, batch, limits);
    const events = admission.events;
    if (events.length === 0) return admission.finish(tx, []);
    const evRows = events.map((ne) => eventToRow(ne.event, ne.bodyHash));
    const col = (k: string) => evRows.map((r) => r[k]);
    const created = new Set(
      (
        await tx.all<{ id: string }>('insert-events', {
          ids: col('id'),
          tenant_ids: col('tenant_id'),
          event_ids: col('event_id'),
          types: col('type'),
          versions: col('version'),
          occurred_ats: col('occurred_at'),
          bodies: col('body'),
          body_hashes: col('body_hash'),
          payload_formats: col('payload_format'),
          is_moneys: col('is_money'),
          ordering_keys: col('ordering_key'),
          traceparents: col('traceparent'),
          tracestates: col('tracestate'),
          created_ats: col('created_at'),
        })
      ).map((r) => r.id),
    );
    const ds = events.flatMap((ne) => (created.has(ne.event.id) ? ne.deliveries.map((d) => ({ ne, d })) : []));
    if (ds.length > 0) {
      await tx.run('insert-deliveries', {
        ids: ds.map(({ d }) => d.id),
        tenant_ids: ds.map(({ ne }) => ne.event.tenantId),
        event_pks: ds.map(({ ne }) => ne.event.id),
        endpoint_ids: ds.map(({ d }) => d.endpointId),
        statuses: ds.map(({ d }) => (d.lease ? 'delivering' : d.status)),
        is_moneys: ds.map(({ ne }) => (ne.event.isMoney ? 1 : 0)),
        next_attempt_ats: ds.map(({ d }) => d.nextAttemptAt),
        lease_untils: ds.map(({ d }) => d.lease?.until ?? null),
        leased_bys: ds.map(({ d }) => d.lease?.workerId ?? null),
        nows: ds.map(({ ne }) => ne.event.createdAt),
      });
    }
    const out: AcceptResult[] = [];
    for (const ne of events) {
      const ev = ne.event;
      if (!created.has(ev.id)) {
        // Already there (an earlier call, or earlier in this batch): the same body answers what it created.
        const [existing] = await tx.all('find-event', { tenant_id: ev.tenantId, event_id: ev.eventId });
        if (!existing || existing.body_hash !== ne.bodyHash) out.push({ kind: 'conflict', eventId: ev.eventId });
        else
          out.push({
            kind: 'existing',
            event: eventFromRow(existing),
            deliveries: (await tx.all('event-deliveries', { event_pk: existing.id })).map((r) => leases.delivery(r)),
          });
        continue;
      }
      const deliveries = ne.deliveries.map((d) => newDelivery(ev, d));
      out.push({ kind: 'created', event: ev, deliveries });
    }
    return admission.finish(tx, out);
  });
}
