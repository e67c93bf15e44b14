// Tenant limits inside the accept transaction (docs/rules.md#tenant-limits): before the inserts, each tenant's new
// events are admitted under its rate and daily limits and payload cap; after them, the new events are counted into
// its day, and a daily-quota notice written when the count crosses 80 % or 100 %. Both accept paths call this.
import {
  admitTenantEvents,
  type IngestLimitValues,
  type IngestRefusal,
  ingestBurst,
  quotaNotice,
  utcDay,
} from '../pacing/tenant-admission.ts';
import type { AcceptResult, IngestLimits, NewEvent } from './events/event-store.ts';
import { quotaEntry } from './notification-rows.ts';
import { insertOutbox } from './outbox-writes.ts';
import type { SqlExecutor } from './sql-driver.ts';

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export interface Admission {
  /** The events to insert, in order (the refused ones left out). */
  events: NewEvent[];
  /** After the inserts, with their results in `events`' order: counts the day, writes notices, answers every event. */
  finish(tx: SqlExecutor, inserted: AcceptResult[]): Promise<AcceptResult[]>;
}

const unlimited = (events: NewEvent[]): Admission => ({ events, finish: async (_tx, inserted) => inserted });

/**
 * Admits the batch's events under their tenants' limits, one tenant at a time in id order. A tenant with a rate or
 * daily limit is locked until commit (PostgreSQL: across API processes), so its bucket, today's count and which of its
 * event ids exist are read and written by one accept at a time; a tenant without limits takes no lock here.
 */
export async function admitEvents(tx: SqlExecutor, events: NewEvent[], limits?: IngestLimits): Promise<Admission> {
  if (!limits || events.length === 0) return unlimited(events);
  const { now, defaults } = limits;
  const day = utcDay(now);
  const byTenant = new Map<string, number[]>();
  events.forEach((ne, i) => {
    const list = byTenant.get(ne.event.tenantId);
    if (list) list.push(i);
    else byTenant.set(ne.event.tenantId, [i]);
  });
  const tenants = [...byTenant.keys()].sort(cmp);
  const effective = new Map<string, IngestLimitValues>();
  for (const r of await tx.all('tenant-ingest-limits', { ids: tenants }))
    effective.set(r.id, {
      eventsPerS: numOrNull(r.events_per_s) ?? defaults.eventsPerS,
      eventsPerDay: numOrNull(r.events_per_day) ?? defaults.eventsPerDay,
      maxPayloadBytes: numOrNull(r.max_payload_bytes) ?? defaults.maxPayloadBytes,
    });
  const refused = new Map<number, IngestRefusal>();
  for (const tenantId of tenants) {
    const lim = effective.get(tenantId);
    // No row: the tenant is gone, and its insert fails as it always did.
    if (!lim || (lim.eventsPerS === null && lim.eventsPerDay === null && lim.maxPayloadBytes === null)) continue;
    const idx = byTenant.get(tenantId)!;
    if (lim.eventsPerS !== null || lim.eventsPerDay !== null)
      await tx.all('lock-tenant-ingest', { tenant_id: tenantId });
    const ids = [...new Set(idx.map((i) => events[i].event.eventId))];
    const existing = new Set(
      (await tx.all('existing-event-ids', { tenant_id: tenantId, event_ids: ids })).map((r) => r.event_id as string),
    );
    let bucket = null;
    if (lim.eventsPerS !== null) {
      await tx.run('ensure-tenant-bucket', {
        tenant_id: tenantId,
        tokens: ingestBurst(lim.eventsPerS),
        now,
      });
      const [b] = await tx.all('get-tenant-bucket', { tenant_id: tenantId });
      bucket = { tokens: Number(b.tokens), refilledAt: Number(b.refilled_at) };
    }
    let eventsToday = 0;
    if (lim.eventsPerDay !== null) {
      const [u] = await tx.all('get-tenant-usage', { tenant_id: tenantId, day });
      eventsToday = Number(u?.events ?? 0);
    }
    const items = idx.map((i) => {
      const ev = events[i].event;
      return { key: ev.eventId, existing: existing.has(ev.eventId), bytes: ev.body.length };
    });
    const a = admitTenantEvents(items, lim, { bucket, eventsToday }, now);
    if (a.bucket)
      await tx.run('put-tenant-bucket', {
        tenant_id: tenantId,
        tokens: a.bucket.tokens,
        refilled_at: a.bucket.refilledAt,
      });
    a.verdicts.forEach((v, k) => {
      if (v) refused.set(idx[k], v);
    });
  }
  return {
    events: refused.size === 0 ? events : events.filter((_, i) => !refused.has(i)),
    finish: async (tx, inserted) => {
      const created = new Map<string, number>();
      for (const r of inserted)
        if (r.kind === 'created') created.set(r.event.tenantId, (created.get(r.event.tenantId) ?? 0) + 1);
      // Every new event counted, in tenant order (the usage rows' lock order).
      for (const tenantId of [...created.keys()].sort(cmp)) {
        const n = created.get(tenantId)!;
        const [u] = await tx.all('add-tenant-usage', { tenant_id: tenantId, day, minute: now - (now % 60_000), n });
        const eventsPerDay = effective.get(tenantId)?.eventsPerDay ?? null;
        const percent = quotaNotice(Number(u.events), eventsPerDay, Number(u.notified_percent));
        if (percent === null || eventsPerDay === null) continue;
        await insertOutbox(
          tx,
          quotaEntry(tenantId, percent, { day, eventsToday: Number(u.events), eventsPerDay }, now),
        );
        await tx.run('set-usage-notified', { tenant_id: tenantId, day, percent });
      }
      let k = 0;
      return events.map((ne, i): AcceptResult => {
        const r = refused.get(i);
        return r ? { kind: 'limited', eventId: ne.event.eventId, ...r } : inserted[k++];
      });
    },
  };
}
