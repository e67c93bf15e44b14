// What each notification says: the notice kind, a plain message, the data of its operational event, a mail subject.
import type { BreakerTransition, Endpoint, Environment, HealthTransition } from '@hookline/core';

export type NoticeKind = 'endpoint.degraded' | 'endpoint.paused' | 'endpoint.recovered' | 'breaker.opened' | 'breaker.closed' | 'delivery.failed';

export interface NoticeDraft {
  kind: NoticeKind;
  tenantId: string;
  /** The endpoint, breaker scope or delivery the notice is about. */
  subjectId: string;
  message: string;
  data: Record<string, unknown>;
  /** The endpoint involved: an operational event about the operations endpoint is never sent through it. */
  endpointId: string | null;
  money: boolean;
}

const PAUSE_WORDS: Record<string, string> = {
  failing: 'paused after failing without interruption',
  consecutive_failures: 'suspended after too many consecutive failed events',
  gone: 'paused because it answered 410 Gone',
  manual: 'paused',
};

/** Null when the transition is not one the owners are told about. */
export function healthNotice(t: HealthTransition, ep: Endpoint | null): NoticeDraft | null {
  const url = ep?.url ?? t.endpointId;
  const base = { tenantId: t.tenantId, subjectId: t.endpointId, endpointId: t.endpointId, money: false };
  const data = { endpoint_id: t.endpointId, url: ep?.url ?? null, from: t.from, to: t.to, reason: t.reason, at: new Date(t.at).toISOString() };
  if (t.to === 'degraded' && t.from === 'active') {
    return { ...base, kind: 'endpoint.degraded', data, message: `Endpoint ${url} is failing; deliveries keep retrying. You are told once until it recovers.` };
  }
  if (t.to === 'paused') {
    const words = PAUSE_WORDS[t.reason] ?? 'paused';
    return { ...base, kind: 'endpoint.paused', data, message: `Endpoint ${url} was ${words}. New events are recorded as skipped; reactivate it (status=active), then replay.` };
  }
  if (t.to === 'active' && t.from === 'degraded') {
    return { ...base, kind: 'endpoint.recovered', data, message: `Endpoint ${url} recovered: a delivery succeeded.` };
  }
  return null;
}

export function breakerNotice(t: BreakerTransition): NoticeDraft | null {
  const scopeId = t.scopeKey.slice(t.scopeKey.indexOf(':') + 1);
  const base = { tenantId: t.tenantId, subjectId: t.scopeKey, endpointId: t.scope === 'endpoint' ? scopeId : null, money: false };
  const data = { scope: t.scope, scope_key: t.scopeKey, from: t.from, to: t.to, reason: t.reason, pause_ms: t.pauseMs, next_probe_at: t.nextProbeAt === null ? null : new Date(t.nextProbeAt).toISOString(), at: new Date(t.at).toISOString() };
  const what = t.scope === 'tenant' ? 'the account' : `endpoint ${scopeId}`;
  // Only closed → open is news; a failed probe reopening it is the same outage.
  if (t.from === 'closed' && t.to === 'open') {
    return { ...base, kind: 'breaker.opened', data, message: `Circuit breaker opened for ${what}: most recent deliveries failed. Deliveries are held (no attempts spent) and retried after a pause.` };
  }
  if (t.to === 'closed') {
    const how = t.reason === 'manual_reset' ? 'was reset' : 'closed after a successful probe';
    return { ...base, kind: 'breaker.closed', data, message: `Circuit breaker for ${what} ${how}; held deliveries are being sent.` };
  }
  return null;
}

export function deliveryFailedNotice(d: { id: string; tenantId: string; endpointId: string; eventId: string; eventType: string; isMoney: boolean; attemptCount: number }, reason: string): NoticeDraft {
  const money = d.isMoney ? 'A money event' : 'An event';
  return {
    kind: 'delivery.failed',
    tenantId: d.tenantId,
    subjectId: d.id,
    endpointId: d.endpointId,
    money: d.isMoney,
    message: `${money} (${d.eventType}, ${d.eventId}) could not be delivered and needs review: ${reason}`,
    data: { delivery_id: d.id, event_id: d.eventId, event_type: d.eventType, endpoint_id: d.endpointId, money: d.isMoney, attempts: d.attemptCount, reason },
  };
}

/** The subject names the tenant's environment first, so a test tenant's mail is never mistaken for a live incident. */
export function mailSubject(n: NoticeDraft, environment: Environment): string {
  const titles: Record<NoticeKind, string> = {
    'endpoint.degraded': 'Endpoint failing',
    'endpoint.paused': 'Endpoint paused',
    'endpoint.recovered': 'Endpoint recovered',
    'breaker.opened': 'Circuit breaker opened',
    'breaker.closed': 'Circuit breaker closed',
    'delivery.failed': n.money ? 'MONEY EVENT delivery failed' : 'Delivery failed',
  };
  return `[Hookline ${environment}] ${titles[n.kind]}: ${n.subjectId}`;
}

export function mailText(n: NoticeDraft, environment: Environment): string {
  return `Environment: ${environment}\n\n${n.message}\n\n${JSON.stringify({ environment, ...n.data }, null, 2)}\n`;
}
