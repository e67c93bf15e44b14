// The outbox rows the store writes inside its own transactions (docs/rules.md#notifications): a health transition's
// notification (one each, never per failure) and an endpoint's summary of deliveries that failed for good.
import type { Endpoint } from '../domain.ts';
import { newId } from '../ids.ts';
import type { FailureSummary } from './failure-summary.ts';
import type { OutboxEntry } from './outbox/outbox-store.ts';
import type { HealthTransition } from './queue/queue-store.ts';

/** A notification's time as its data says it: ISO 8601, or null. */
export const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Null when the health change is not news (a further failure of a degraded endpoint, a reactivation). */
export function healthEntry(t: HealthTransition, ep: Pick<Endpoint, 'url'> | null): OutboxEntry | null {
  const kind =
    t.to === 'degraded' && t.from === 'active'
      ? 'endpoint.degraded'
      : t.to === 'paused'
        ? 'endpoint.paused'
        : t.to === 'active' && t.from === 'degraded'
          ? 'endpoint.recovered'
          : null;
  if (kind === null) return null;
  return {
    id: newId('ntc', t.at),
    tenantId: t.tenantId,
    kind,
    subjectId: t.endpointId,
    endpointId: t.endpointId,
    data: { endpoint_id: t.endpointId, url: ep?.url ?? null, from: t.from, to: t.to, reason: t.reason, at: iso(t.at) },
    createdAt: t.at,
  };
}

/** One endpoint's summary of deliveries that failed for good: the count, the first ids, the rest counted. */
export function summaryEntry(tenantId: string, endpointId: string, s: FailureSummary, now: number): OutboxEntry {
  return {
    id: newId('ntc', now),
    tenantId,
    kind: 'deliveries.failed',
    subjectId: endpointId,
    endpointId,
    data: {
      endpoint_id: endpointId,
      count: s.count,
      money: s.money,
      deliveries: s.first.map((f) => ({
        delivery_id: f.deliveryId,
        event_id: f.eventId,
        event_type: f.eventType,
        money: f.money,
      })),
      more: s.more,
      since: iso(s.since),
      until: iso(s.until),
    },
    createdAt: now,
  };
}

/** A tenant's daily quota crossed 80 % (`quota.warning`) or reached 100 % (`quota.reached`), once each per UTC day. */
export function quotaEntry(
  tenantId: string,
  percent: 80 | 100,
  usage: { day: number; eventsToday: number; eventsPerDay: number },
  now: number,
): OutboxEntry {
  return {
    id: newId('ntc', now),
    tenantId,
    kind: percent === 100 ? 'quota.reached' : 'quota.warning',
    subjectId: tenantId,
    endpointId: null,
    data: {
      day: iso(usage.day)!.slice(0, 10),
      percent,
      events_today: usage.eventsToday,
      events_per_day: usage.eventsPerDay,
      resets_at: iso(usage.day + 86_400_000),
    },
    createdAt: now,
  };
}
