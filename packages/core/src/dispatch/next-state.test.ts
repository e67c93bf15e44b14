import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Delivery } from '../domain.ts';
import type { SendResult } from '../http/sender.ts';
import { PAYMENTS } from '../policy/presets.ts';
import { nextState } from './next-state.ts';

const T = Date.UTC(2026, 0, 5);
const delivery: Delivery = {
  id: 'dlv_1', tenantId: 'ten_1', eventPk: 'evt_1', eventId: 'e1', eventType: 'payment.status_changed', endpointId: 'ep_1',
  status: 'delivering', ladder: 'fast', isMoney: true, attemptCount: 2, fastFailures: 2, slowFailures: 0, slowStartedAt: null,
  firstAttemptAt: T, lastAttemptAt: T + 1000, nextAttemptAt: T + 3000, leaseUntil: null, terminalReason: null, createdAt: T, updatedAt: T,
};
const result = (status: number, outcome: SendResult['outcome']): SendResult => ({
  outcome, status, responseHeaders: {}, bodyExcerpt: '', errorClass: outcome === 'success' ? null : 'status', errorMessage: null, startedAt: 0, durationMs: 1,
});

test('a 404 on a money event after two fast failures starts the slow ladder 15 min after the attempt ended', () => {
  const s = nextState(PAYMENTS, delivery, result(404, 'client_error'), T + 3000, T + 3000, false, () => 0.5);
  assert.deepEqual(s.next, { status: 'pending', nextAttemptAt: T + 3000 + 15 * 60_000, ladder: 'slow' });
  assert.deepEqual(s.progress, { fastFailures: 2, slowFailures: 1, slowStartedAt: T + 3000, firstAttemptAt: T });
});

test('a replay is one attempt: failure leaves it failed with the reason, progress untouched; success succeeds', () => {
  const failed = nextState(PAYMENTS, delivery, result(503, 'delivery_failure'), T + 9000, T + 9000, true, () => 0.5);
  assert.deepEqual(failed.next, { status: 'failed', reason: 'replay failed: HTTP 503' });
  assert.deepEqual(failed.progress, { fastFailures: 2, slowFailures: 0, slowStartedAt: null, firstAttemptAt: T });
  assert.deepEqual(nextState(PAYMENTS, delivery, result(200, 'success'), T + 9000, T + 9000, true, () => 0.5).next, { status: 'succeeded' });
});
