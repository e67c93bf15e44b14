import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Delivery } from '../domain.ts';
import type { SendResult } from '../http/sender.ts';
import { PAYMENTS, STRICT } from '../policy/presets.ts';
import { describeResult, nextState } from './next-state.ts';

const T = Date.UTC(2026, 0, 5);
const delivery: Delivery = {
  id: 'dlv_1',
  tenantId: 'ten_1',
  eventPk: 'evt_1',
  eventId: 'e1',
  eventType: 'payment.status_changed',
  endpointId: 'ep_1',
  status: 'delivering',
  ladder: 'fast',
  isMoney: true,
  attemptCount: 2,
  fastFailures: 2,
  slowFailures: 0,
  slowStartedAt: null,
  firstAttemptAt: T,
  lastAttemptAt: T + 1000,
  nextAttemptAt: T + 3000,
  leaseUntil: null,
  terminalReason: null,
  createdAt: T,
  updatedAt: T,
};
const result = (status: number, outcome: SendResult['outcome']): SendResult => ({
  outcome,
  status,
  responseHeaders: {},
  bodyExcerpt: '',
  errorClass: outcome === 'success' ? null : 'status',
  errorMessage: null,
  startedAt: 0,
  durationMs: 1,
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
  assert.deepEqual(nextState(PAYMENTS, delivery, result(200, 'success'), T + 9000, T + 9000, true, () => 0.5).next, {
    status: 'succeeded',
  });
});

test('a success ends the delivery and keeps its counters; a first attempt records its start', () => {
  const fresh: Delivery = { ...delivery, attemptCount: 0, fastFailures: 0, firstAttemptAt: null };
  const s = nextState(PAYMENTS, fresh, result(200, 'success'), T + 500, T + 700, false, () => 0.5);
  assert.deepEqual(s, {
    next: { status: 'succeeded' },
    progress: { fastFailures: 0, slowFailures: 0, slowStartedAt: null, firstAttemptAt: T + 500 },
  });
});

test('a terminal decision names the policy’s reason and the last result', () => {
  const s = nextState(STRICT, delivery, result(400, 'client_error'), T + 3000, T + 3000, false, () => 0.5);
  assert.deepEqual(s.next, { status: 'failed', reason: 'client error 400 is permanent; last: HTTP 400' });
  assert.deepEqual(s.progress, { fastFailures: 2, slowFailures: 0, slowStartedAt: null, firstAttemptAt: T });
  // The fast ladder's 10th delivery failure spends its budget.
  const spent = nextState(
    PAYMENTS,
    { ...delivery, fastFailures: 9 },
    result(503, 'delivery_failure'),
    T + 3000,
    T + 3000,
    false,
    () => 0.5,
  );
  assert.deepEqual(spent.next, {
    status: 'failed',
    reason: '10 delivery failures, fast-ladder budget spent; last: HTTP 503',
  });
  assert.equal(spent.progress.fastFailures, 10);
});

test('the status and Retry-After reach the decision: Retry-After counts on a 503, not on a 500', () => {
  const asked = { ...result(503, 'delivery_failure'), retryAfterMs: 100_000 };
  const s = nextState(PAYMENTS, delivery, asked, T + 3000, T + 4000, false, () => 0.5);
  assert.deepEqual(s.next, { status: 'pending', nextAttemptAt: T + 4000 + 100_000, ladder: 'fast' });
  assert.equal(s.progress.fastFailures, 3);
  const ignored = nextState(PAYMENTS, delivery, { ...asked, status: 500 }, T + 3000, T + 4000, false, () => 0.5);
  assert.deepEqual(
    ignored.next,
    { status: 'pending', nextAttemptAt: T + 4000 + 4_000, ladder: 'fast' },
    'third delay of the fast ladder',
  );
});

test('describeResult: the status line for a status error, else the message, the class, the status, or "unknown"', () => {
  const base: SendResult = {
    outcome: 'delivery_failure',
    status: null,
    responseHeaders: null,
    bodyExcerpt: null,
    errorClass: null,
    errorMessage: null,
    startedAt: 0,
    durationMs: 1,
  };
  assert.equal(describeResult({ ...base, status: 502, errorClass: 'status', errorMessage: 'ignored' }), 'HTTP 502');
  // Headers arrived, then the body timed out: the timeout is what happened, not the status.
  assert.equal(
    describeResult({ ...base, status: 200, errorClass: 'timeout', errorMessage: 'timeout after 10000 ms' }),
    'timeout after 10000 ms',
  );
  assert.equal(
    describeResult({ ...base, errorClass: 'connection', errorMessage: 'connect ECONNREFUSED 127.0.0.1:9' }),
    'connect ECONNREFUSED 127.0.0.1:9',
  );
  assert.equal(describeResult({ ...base, errorClass: 'dns' }), 'dns');
  assert.equal(
    describeResult({ ...base, status: 200, outcome: 'success', errorClass: 'status', errorMessage: 'note' }),
    'note',
    'a success is not a status error',
  );
  assert.equal(describeResult({ ...base, status: 200, outcome: 'success' }), 'HTTP 200');
  assert.equal(describeResult(base), 'unknown');
});
