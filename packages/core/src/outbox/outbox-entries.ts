// Which transitions the owners are told about, as outbox rows (docs/rules.md#notifications): one each, never per failure.
import type { BreakerTransition, Endpoint } from '../domain.ts';
import { newId } from '../ids.ts';
import type { HealthTransition, OutboxEntry } from '../store/store.ts';
import type { FailureSummary } from './failure-summary.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

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

/** Only closed → open and → closed are news: a failed probe reopening the breaker is the same outage. */
export function breakerEntry(t: BreakerTransition): OutboxEntry | null {
  const kind =
    t.from === 'closed' && t.to === 'open'
      ? 'breaker.opened'
      : t.to === 'closed' && t.from !== 'closed'
        ? 'breaker.closed'
        : null;
  if (kind === null) return null;
  const scopeId = t.scopeKey.slice(t.scopeKey.indexOf(':') + 1);
  return {
    id: newId('ntc', t.at),
    tenantId: t.tenantId,
    kind,
    subjectId: t.scopeKey,
    endpointId: t.scope === 'endpoint' ? scopeId : null,
    data: {
      scope: t.scope,
      scope_key: t.scopeKey,
      from: t.from,
      to: t.to,
      reason: t.reason,
      pause_ms: t.pauseMs,
      next_probe_at: iso(t.nextProbeAt),
      at: iso(t.at),
    },
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
