import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultRetryPolicy, nextRetryStep, resolveRetryPolicy } from './retry-policy.ts';

test('default inbox retry: 1 s doubling, capped at 10 min, dead after the 10th run', () => {
  const delays: number[] = [];
  for (let failures = 1; failures < 10; failures++) {
    const step = nextRetryStep(defaultRetryPolicy, failures, 5_000);
    assert.equal(step.kind, 'retry');
    if (step.kind === 'retry') {
      assert.equal(step.at, 5_000 + step.delayMs);
      delays.push(step.delayMs);
    }
  }
  assert.deepEqual(delays, [1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000]);
  assert.deepEqual(nextRetryStep(defaultRetryPolicy, 10, 0), { kind: 'dead', reason: 'failed 10 times' });
  const long = resolveRetryPolicy({ maxAttempts: 20 });
  assert.equal((nextRetryStep(long, 15, 0) as { delayMs: number }).delayMs, 600_000, 'capped at maxDelayMs');
});

test('inbox retry policy: overrides are checked once, with a plain message', () => {
  assert.deepEqual(resolveRetryPolicy({ maxAttempts: 3 }), { ...defaultRetryPolicy, maxAttempts: 3 });
  assert.throws(() => resolveRetryPolicy({ factor: 0.5 }), /retry\.factor must be a number ≥ 1/);
  assert.throws(() => resolveRetryPolicy({ maxAttempts: 0 }), /retry\.maxAttempts/);
  assert.throws(() => resolveRetryPolicy({ maxAttempts: 2.5 }), /must be an integer/);
  assert.throws(() => resolveRetryPolicy({ initialDelayMs: 5000, maxDelayMs: 1000 }), /maxDelayMs/);
  assert.equal(
    nextRetryStep(resolveRetryPolicy({ maxAttempts: 1 }), 1, 0).kind,
    'dead',
    'one try: the first failure is final',
  );
});
