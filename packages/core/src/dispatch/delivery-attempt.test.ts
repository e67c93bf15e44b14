import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SendResult } from '../http/sender.ts';
import { PAYMENTS, STANDARD } from '../policy/presets.ts';
import type { ClaimedDelivery } from '../store/store.ts';
import { attemptLogFields, attemptRecord, MAX_TIMEOUT_MS, sendTimeoutMs, signedRequest } from './delivery-attempt.ts';

// The Standard Webhooks published vector (packages/receiver/src/test-vectors.json, computed outside Hookline).
const VECTOR = {
  eventId: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  deliveryId: 'dlv_01HZX3V4Q8K2M5N7P9R1S3T5V7',
  timestampSec: 1614265330,
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const T = VECTOR.timestampSec * 1000;

function claim(over: { replayId?: string | null; orderingKey?: string | null } = {}): ClaimedDelivery {
  return {
    delivery: {
      id: VECTOR.deliveryId,
      tenantId: 'ten_1',
      eventPk: 'evt_1',
      eventId: VECTOR.eventId,
      eventType: 'invoice.paid',
      endpointId: 'ep_1',
      status: 'delivering',
      ladder: 'fast',
      isMoney: false,
      attemptCount: 1,
      fastFailures: 1,
      slowFailures: 0,
      slowStartedAt: null,
      firstAttemptAt: T - 60_000,
      lastAttemptAt: T - 60_000,
      nextAttemptAt: T,
      leaseUntil: T + 90_000,
      terminalReason: null,
      orderingKey: over.orderingKey ?? null,
      createdAt: T - 61_000,
      updatedAt: T - 60_000,
    },
    body: Buffer.from(VECTOR.body),
    endpoint: {
      id: 'ep_1',
      tenantId: 'ten_1',
      url: 'http://127.0.0.1:9/hook',
      description: '',
      eventTypes: [],
      policy: 'standard',
      scheme: 'standard',
      timeoutMs: null,
      maxConcurrency: 7,
      customHeaders: { 'X-Tenant': 'acme', Authorization: 'Bearer s3cret' },
      status: 'active',
      pauseReason: null,
      failingSince: null,
      consecutiveFailedEvents: 0,
      lastSuccessAt: null,
      createdAt: T - 100_000,
      updatedAt: T - 100_000,
      version: 3,
    },
    environment: 'live',
    replayId: over.replayId ?? null,
  };
}

const SIGNED = {
  'webhook-id': VECTOR.eventId,
  'webhook-delivery': VECTOR.deliveryId,
  'webhook-timestamp': String(VECTOR.timestampSec),
  'webhook-signature': VECTOR.signature,
};

const answer = (status: number, outcome: SendResult['outcome']): SendResult => ({
  outcome,
  status,
  responseHeaders: { 'content-type': 'text/plain' },
  bodyExcerpt: 'busy',
  errorClass: outcome === 'success' ? null : 'status',
  errorMessage: null,
  startedAt: T,
  durationMs: 42,
});

test('the signed request: the published vector signature, custom headers beneath, the endpoint and its cap', () => {
  const req = signedRequest(claim(), [{ kid: 'key_1', secret: VECTOR.secret }], T + 999, 15_000);
  assert.deepEqual(req, {
    url: 'http://127.0.0.1:9/hook',
    headers: { 'X-Tenant': 'acme', Authorization: 'Bearer s3cret', ...SIGNED },
    body: Buffer.from(VECTOR.body),
    timeoutMs: 15_000,
    endpointId: 'ep_1',
    maxConcurrency: 7,
  });
  // Custom first, signed last: a receiver reading the last value of a repeated name sees Hookline's.
  assert.deepEqual(Object.keys(req.headers), ['X-Tenant', 'Authorization', ...Object.keys(SIGNED)]);
});

test('a custom header naming a signed one never replaces it', () => {
  const c = claim();
  c.endpoint.customHeaders = { 'Webhook-Signature': 'forged' };
  const req = signedRequest(c, [{ kid: 'key_1', secret: VECTOR.secret }], T, 1000);
  assert.deepEqual(req.headers, SIGNED);
});

test('the send timeout: the endpoint’s, else the policy’s, never above 60 s', () => {
  const c = claim();
  assert.equal(sendTimeoutMs(c, STANDARD), 15_000);
  assert.equal(sendTimeoutMs(c, PAYMENTS), PAYMENTS.timeoutMs);
  c.endpoint.timeoutMs = 2500;
  assert.equal(sendTimeoutMs(c, STANDARD), 2500);
  c.endpoint.timeoutMs = 120_000;
  assert.equal(sendTimeoutMs(c, STANDARD), MAX_TIMEOUT_MS);
  assert.equal(MAX_TIMEOUT_MS, 60_000);
});

test('a scheduled attempt answered 503: its row, the retry 5 min after it ended, health and breaker counting', () => {
  const c = claim();
  const headers = { 'X-Tenant': 'acme', Authorization: 'Bearer s3cret', ...SIGNED };
  const r = attemptRecord(
    c,
    STANDARD,
    headers,
    answer(503, 'delivery_failure'),
    T,
    T + 40,
    false,
    'ep:ep_1',
    'wrk_1',
    () => 0.5,
  );
  assert.match(r.attempt.id, /^att_/);
  assert.deepEqual(r, {
    attempt: {
      id: r.attempt.id,
      deliveryId: VECTOR.deliveryId,
      tenantId: 'ten_1',
      environment: 'live',
      endpointId: 'ep_1',
      n: 2,
      trigger: 'scheduled',
      ladder: 'fast',
      startedAt: T,
      // Credential-looking custom values are recorded redacted; what was sent is not changed.
      requestHeaders: { 'X-Tenant': 'acme', Authorization: '[redacted]', ...SIGNED },
      durationMs: 42,
      responseStatus: 503,
      responseHeaders: { 'content-type': 'text/plain' },
      responseExcerpt: 'busy',
      errorClass: 'status',
      errorMessage: null,
      outcome: 'delivery_failure',
    },
    workerId: 'wrk_1',
    // Second fast failure of STANDARD: 5 min after the attempt ended (random 0.5: no jitter).
    next: { status: 'pending', nextAttemptAt: T + 40 + 5 * 60_000, ladder: 'fast' },
    progress: { fastFailures: 2, slowFailures: 0, slowStartedAt: null, firstAttemptAt: T - 60_000 },
    replayId: null,
    previousAttemptAt: T - 60_000,
    health: { rule: STANDARD.health, countsFailure: true, countsSuccess: true },
    breakerScope: 'ep:ep_1',
  });
  assert.equal(headers.Authorization, 'Bearer s3cret');
});

test('a simulated duration is the attempt’s duration', () => {
  const r = attemptRecord(
    claim(),
    STANDARD,
    SIGNED,
    { ...answer(200, 'success'), simulatedDurationMs: 750 },
    T,
    T + 750,
    false,
    null,
    'wrk_1',
    () => 0.5,
  );
  assert.equal(r.attempt.durationMs, 750);
  assert.deepEqual(r.next, { status: 'succeeded' });
});

test('a replay is triggered `replay`, leaves failure counting to health alone and ends failed', () => {
  const r = attemptRecord(
    claim({ replayId: 'rpl_1' }),
    STANDARD,
    SIGNED,
    answer(503, 'delivery_failure'),
    T,
    T + 40,
    false,
    null,
    'wrk_1',
    () => 0.5,
  );
  assert.equal(r.attempt.trigger, 'replay');
  assert.equal(r.replayId, 'rpl_1');
  assert.equal(r.breakerScope, null);
  assert.deepEqual(r.health, { rule: STANDARD.health, countsFailure: false, countsSuccess: true });
  assert.deepEqual(r.next, { status: 'failed', reason: 'replay failed: HTTP 503' });
});

test('a probe counts for health like a scheduled attempt; an ordered delivery names its key', () => {
  const r = attemptRecord(
    claim({ orderingKey: 'cus_9' }),
    STANDARD,
    SIGNED,
    answer(200, 'success'),
    T,
    T + 40,
    true,
    'ep:ep_1',
    'wrk_2',
    () => 0.5,
  );
  assert.equal(r.attempt.trigger, 'probe');
  assert.deepEqual(r.health, { rule: STANDARD.health, countsFailure: true, countsSuccess: true });
  assert.deepEqual(r.ordering, { endpointId: 'ep_1', key: 'cus_9' });
  assert.equal(
    'ordering' in attemptRecord(claim(), STANDARD, SIGNED, answer(200, 'success'), T, T, false, null, 'w', () => 0.5),
    false,
  );
});

test('an egress failure (the proxy, the token endpoint) retries on the ladder but counts for neither health nor the breaker window', () => {
  for (const errorClass of ['proxy_refused', 'proxy_auth_failed', 'proxy_unreachable', 'oauth_token_failed'] as const) {
    for (const probe of [false, true]) {
      const result: SendResult = { ...answer(0, 'delivery_failure'), status: null, errorClass, errorMessage: 'proxy' };
      const r = attemptRecord(claim(), STANDARD, SIGNED, result, T, T + 40, probe, 'ep:ep_1', 'wrk_1', () => 0.5);
      assert.equal(r.next.status, 'pending', 'it retries like any delivery failure');
      assert.equal(r.attempt.outcome, 'delivery_failure');
      assert.equal(r.breakerScope, null, `${errorClass}: no breaker window row`);
      assert.deepEqual(r.health, { rule: STANDARD.health, countsFailure: false, countsSuccess: true }, errorClass);
    }
  }
  // The receiver's own failures still count.
  const refused: SendResult = { ...answer(0, 'delivery_failure'), status: null, errorClass: 'connection' };
  const r = attemptRecord(claim(), STANDARD, SIGNED, refused, T, T + 40, false, 'ep:ep_1', 'wrk_1', () => 0.5);
  assert.equal(r.breakerScope, 'ep:ep_1');
  assert.equal(r.health?.countsFailure, true);
});

test('the attempt log line', () => {
  const c = claim();
  const result = answer(503, 'delivery_failure');
  const r = attemptRecord(c, STANDARD, SIGNED, result, T, T + 40, false, null, 'wrk_1', () => 0.5);
  assert.deepEqual(attemptLogFields(c, r, result), {
    event_id: VECTOR.eventId,
    delivery_id: VECTOR.deliveryId,
    attempt: 2,
    endpoint_id: 'ep_1',
    tenant_id: 'ten_1',
    environment: 'live',
    trigger: 'scheduled',
    status: 503,
    outcome: 'delivery_failure',
    error_class: 'status',
    duration_ms: 42,
    next: 'pending',
  });
});
