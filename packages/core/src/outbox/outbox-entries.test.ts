// Which breaker transitions become owner notifications, and what the row says: only an outage's start and its end.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BreakerTransition } from '../domain.ts';
import { hasPrefix } from '../ids.ts';
import { breakerEntry } from './outbox-entries.ts';

const AT = Date.UTC(2026, 0, 5, 12);

function transition(
  from: BreakerTransition['from'],
  to: BreakerTransition['to'],
  fields: Partial<BreakerTransition> = {},
) {
  return {
    at: AT,
    scope: 'endpoint',
    scopeKey: 'endpoint:ep_1',
    tenantId: 'ten_1',
    from,
    to,
    reason: 'failure_ratio',
    pauseMs: 30_000,
    nextProbeAt: AT + 30_000,
    probeDeliveryId: null,
    ...fields,
  } satisfies BreakerTransition;
}

test('closed → open is breaker.opened; → closed from open or probing is breaker.closed; the rest is the same outage', () => {
  const kinds = (
    [
      ['closed', 'open'],
      ['open', 'probing'],
      ['probing', 'open'],
      ['probing', 'closed'],
      ['open', 'closed'],
      ['closed', 'closed'],
      ['closed', 'probing'],
      ['open', 'open'],
    ] as const
  ).map(([from, to]) => breakerEntry(transition(from, to))?.kind ?? null);
  assert.deepEqual(kinds, ['breaker.opened', null, null, 'breaker.closed', 'breaker.closed', null, null, null]);
});

test('an endpoint breaker names its endpoint; the row carries the transition, times as ISO text', () => {
  const e = breakerEntry(transition('closed', 'open'))!;
  assert.ok(hasPrefix(e.id, 'ntc'), e.id);
  assert.deepEqual(
    { ...e, id: undefined },
    {
      id: undefined,
      tenantId: 'ten_1',
      kind: 'breaker.opened',
      subjectId: 'endpoint:ep_1',
      endpointId: 'ep_1',
      data: {
        scope: 'endpoint',
        scope_key: 'endpoint:ep_1',
        from: 'closed',
        to: 'open',
        reason: 'failure_ratio',
        pause_ms: 30_000,
        next_probe_at: '2026-01-05T12:00:30.000Z',
        at: '2026-01-05T12:00:00.000Z',
      },
      createdAt: AT,
    },
  );
});

test('a tenant breaker names no endpoint; a closed breaker has no next probe', () => {
  const e = breakerEntry(
    transition('probing', 'closed', {
      scope: 'tenant',
      scopeKey: 'tenant:ten_1',
      reason: 'probe_succeeded',
      pauseMs: 0,
      nextProbeAt: null,
    }),
  )!;
  assert.equal(e.endpointId, null);
  assert.equal(e.subjectId, 'tenant:ten_1');
  assert.deepEqual(e.data, {
    scope: 'tenant',
    scope_key: 'tenant:ten_1',
    from: 'probing',
    to: 'closed',
    reason: 'probe_succeeded',
    pause_ms: 0,
    next_probe_at: null,
    at: '2026-01-05T12:00:00.000Z',
  });
});

test("the endpoint id is what follows the scope's first colon", () => {
  assert.equal(breakerEntry(transition('closed', 'open', { scopeKey: 'endpoint:ep_x:y' }))!.endpointId, 'ep_x:y');
});
