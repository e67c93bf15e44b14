import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY, H, MIN, S } from '../../testing/time.ts';
import { BRIEF, DEFAULT_POLICY, isPresetName, PAYMENTS, PRESETS, STANDARD, STRICT } from './presets.ts';
import { checkPolicy } from './registry.ts';

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

test('four presets ship, standard is the default', () => {
  assert.deepEqual(Object.keys(PRESETS), ['payments', 'standard', 'brief', 'strict']);
  assert.equal(DEFAULT_POLICY, 'standard');
  for (const [name, policy] of Object.entries(PRESETS)) assert.equal(policy.name, name);
  assert.equal(isPresetName('strict'), true);
  assert.equal(isPresetName('toString'), false);
});

test('presets are deeply frozen', () => {
  for (const policy of Object.values(PRESETS)) {
    assert.ok(Object.isFrozen(policy));
    assert.ok(Object.isFrozen(policy.fast));
    assert.ok(Object.isFrozen(policy.fast.delaysMs));
    assert.ok(Object.isFrozen(policy.health));
    assert.ok(Object.isFrozen(policy.retryAfter));
  }
  assert.throws(() => {
    (PAYMENTS.fast.delaysMs as number[])[0] = 99;
  }, TypeError);
});

test('every preset passes the registry checks', () => {
  for (const policy of Object.values(PRESETS)) checkPolicy(policy);
});

test('shared: 20 concurrent requests and pause on 410 everywhere; Retry-After honoured everywhere', () => {
  for (const policy of Object.values(PRESETS)) {
    assert.equal(policy.maxConcurrency, 20, policy.name);
    assert.equal(policy.health.pauseOnGone, true, policy.name);
    assert.equal(policy.retryAfter.honour, true, policy.name);
    // The cap never exceeds the policy's own longest pause.
    assert.ok(policy.retryAfter.maxMs <= Math.max(...policy.fast.delaysMs), policy.name);
  }
});

test('payments: fast ladder 1..256 s, budget 10, ≈ 8.5 min of pauses', () => {
  assert.deepEqual(
    PAYMENTS.fast.delaysMs,
    [1, 2, 4, 8, 16, 32, 64, 128, 256].map((s) => s * S),
  );
  for (const [i, d] of PAYMENTS.fast.delaysMs.entries()) assert.equal(d, 2 ** i * S); // 2^(f-1) s after the f-th failure
  assert.equal(PAYMENTS.fast.maxFailures, 10);
  assert.equal(sum(PAYMENTS.fast.delaysMs), 511 * S);
});

test('payments: slow ladder 15 min, 1 h, 4 h, 12 h, 24 h, budget 6, 48 h from its start', () => {
  assert.deepEqual(PAYMENTS.slow?.delaysMs, [15 * MIN, H, 4 * H, 12 * H, 24 * H]);
  assert.equal(PAYMENTS.slow?.maxFailures, 6);
  assert.equal(sum(PAYMENTS.slow!.delaysMs), 41 * H + 15 * MIN);
  assert.equal(PAYMENTS.slow?.windowMs, 48 * H);
  assert.equal(PAYMENTS.slow?.windowFrom, 'ladder_start');
  assert.equal(PAYMENTS.clientErrors, 'slow_for_money');
});

test('payments: 30-day age limit, 10 s timeout, no jitter, tenant breaker per docs/rules.md#breaker-scope', () => {
  assert.equal(PAYMENTS.maxAgeMs, 30 * DAY);
  assert.equal(PAYMENTS.timeoutMs, 10 * S);
  assert.equal(PAYMENTS.jitter, 0);
  assert.deepEqual(PAYMENTS.breaker, {
    scope: 'tenant',
    windowMs: 5 * MIN,
    minAttempts: 5,
    failureRatio: 0.8,
    pauseMs: 5 * MIN,
    maxPauseMs: 30 * MIN,
    recheckMs: 30 * S,
  });
});

test('standard: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; 8 attempts; ±20 %; retry everything; 15 s; paused after 5 days', () => {
  assert.deepEqual(STANDARD.fast.delaysMs, [5 * S, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 10 * H]);
  assert.equal(STANDARD.fast.maxFailures ?? STANDARD.fast.delaysMs.length + 1, 8);
  assert.equal(STANDARD.jitter, 0.2);
  assert.equal(STANDARD.clientErrors, 'retry');
  assert.equal(STANDARD.timeoutMs, 15 * S);
  assert.equal(STANDARD.health.pauseAfterFailingMs, 5 * DAY);
  assert.equal(STANDARD.breaker, undefined);
  assert.equal(STANDARD.slow, undefined);
});

test('brief: 30 s, 5 min, 30 min; 4 attempts; 5 s; 20 concurrent; suspend after 50 failed events; retry any non-2xx', () => {
  assert.deepEqual(BRIEF.fast.delaysMs, [30 * S, 5 * MIN, 30 * MIN]);
  assert.equal(BRIEF.fast.maxFailures ?? BRIEF.fast.delaysMs.length + 1, 4);
  assert.equal(sum(BRIEF.fast.delaysMs), 35 * MIN + 30 * S);
  assert.equal(BRIEF.timeoutMs, 5 * S);
  assert.equal(BRIEF.health.suspendAfterConsecutiveFailedEvents, 50);
  assert.equal(BRIEF.clientErrors, 'retry');
});

test('strict: 30 s, 2 min, 10 min, 1 h then hourly, ±10 %, 24 h window from the first attempt, client errors permanent', () => {
  assert.deepEqual(STRICT.fast.delaysMs, [30 * S, 2 * MIN, 10 * MIN, H]);
  assert.equal(STRICT.fast.repeatLast, true);
  assert.equal(STRICT.fast.maxFailures, undefined);
  assert.equal(STRICT.jitter, 0.1);
  assert.equal(STRICT.fast.windowMs, 24 * H);
  assert.equal(STRICT.fast.windowFrom, 'first_attempt');
  assert.equal(STRICT.clientErrors, 'fail');
});
