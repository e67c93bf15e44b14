// Which breaker transitions the owners are told about, as outbox rows (docs/rules.md#notifications): one each. The rows
// the store writes inside its own transactions (health transitions, failure summaries) are store/notification-rows.ts.
import type { BreakerTransition } from '../domain.ts';
import { newId } from '../ids.ts';
import { iso } from '../store/notification-rows.ts';
import type { OutboxEntry } from '../store/store.ts';

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
