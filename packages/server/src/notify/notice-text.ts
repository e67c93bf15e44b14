// What each notification says: from an outbox row, the notice's plain message, its operational event's data, a mail subject.
import type { Environment, OutboxKind, OutboxRow } from '@hookline/core';

export type NoticeKind = OutboxKind;

export interface NoticeDraft {
  kind: NoticeKind;
  message: string;
  /** The operational event's data: the row's facts and the message. */
  data: Record<string, unknown>;
  /** A failure summary that lists at least one money event. */
  money: boolean;
  subject: string;
}

const PAUSE_WORDS: Record<string, string> = {
  failing: 'paused after failing without interruption',
  consecutive_failures: 'suspended after too many consecutive failed events',
  gone: 'paused because it answered 410 Gone',
  manual: 'paused',
};

const TITLES: Record<NoticeKind, string> = {
  'endpoint.degraded': 'Endpoint failing',
  'endpoint.paused': 'Endpoint paused',
  'endpoint.recovered': 'Endpoint recovered',
  'breaker.opened': 'Circuit breaker opened',
  'breaker.closed': 'Circuit breaker closed',
  'deliveries.failed': 'Deliveries failed',
  'quota.warning': 'Daily event quota at 80 %',
  'quota.reached': 'Daily event quota reached',
};

const minutes = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`);
const held = (ms: unknown) => (typeof ms === 'number' && ms > 0 ? ` for ${minutes(ms)}` : '');

function messageOf(row: OutboxRow): string {
  const d = row.data as Record<string, any>;
  const url = d.url ?? row.subjectId;
  const what =
    d.scope === 'tenant'
      ? 'the account'
      : `endpoint ${String(d.scope_key ?? '').slice(String(d.scope_key ?? '').indexOf(':') + 1)}`;
  switch (row.kind) {
    case 'endpoint.degraded':
      return `Endpoint ${url} is failing; deliveries keep retrying. You are told once per incident: not again until it has recovered and stayed healthy${held(d.reopen_window_ms)}.`;
    case 'endpoint.paused':
      return `Endpoint ${url} was ${PAUSE_WORDS[d.reason] ?? 'paused'}. New events are recorded as skipped; reactivate it (status=active), then replay.`;
    case 'endpoint.recovered':
      return `Endpoint ${url} recovered: a delivery succeeded${d.held_ms > 0 ? `, and none has failed in the ${minutes(d.held_ms)} since` : ''}.`;
    case 'breaker.opened':
      return `Circuit breaker opened for ${what}: most recent deliveries failed. Deliveries are held (no attempts spent) and retried after a pause.`;
    case 'breaker.closed':
      return `Circuit breaker for ${what} ${d.reason === 'manual_reset' ? 'was reset' : 'closed after a successful probe'}; held deliveries are being sent.`;
    case 'deliveries.failed': {
      const listed = (d.deliveries as Array<{ event_id: string }>).map((x) => x.event_id).join(', ');
      const money = d.money > 0 ? ` (${d.money} money event${d.money === 1 ? '' : 's'})` : '';
      const more = d.more > 0 ? ` and ${d.more} more` : '';
      return `${d.count} deliver${d.count === 1 ? 'y' : 'ies'}${money} to endpoint ${row.endpointId} failed for good and need review (replay them once it is fixed): ${listed}${more}.`;
    }
    case 'quota.warning':
      return `${d.events_today} of today's ${d.events_per_day} events are used (${d.day}, UTC): at the limit, new events are refused with 429 tenant_quota_exceeded until ${d.resets_at}.`;
    case 'quota.reached':
      return `The daily limit of ${d.events_per_day} events is reached (${d.day}, UTC): new events are refused with 429 tenant_quota_exceeded until ${d.resets_at}; events already accepted are delivered as usual.`;
  }
}

/** The subject names the tenant's environment first, so a test tenant's mail is never mistaken for a live incident (docs/rules.md#environments). */
export function noticeOf(row: OutboxRow, environment: Environment): NoticeDraft {
  const message = messageOf(row);
  const money = row.kind === 'deliveries.failed' && Number(row.data.money) > 0;
  const title = money ? 'MONEY EVENTS failed' : TITLES[row.kind];
  return {
    kind: row.kind,
    message,
    money,
    data: { notice_id: row.id, environment, message, ...row.data },
    subject: `[Hookline ${environment}] ${title}: ${row.subjectId ?? row.tenantId}`,
  };
}
