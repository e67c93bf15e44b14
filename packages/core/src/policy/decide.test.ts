// The retry decision (docs/rules.md#policies): the general rules, Retry-After, and the standard, brief and strict presets
// (payments: decide.payments.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { failed, fresh, half, retry, starts } from '../../testing/decisions.ts';
import { DAY, H, MIN, S } from '../../testing/time.ts';
import { decide, ladderBudget, startProgress } from './decide.ts';
import { BRIEF, PAYMENTS, STANDARD, STRICT } from './presets.ts';
import { seededRandom } from './random.ts';
import type { NextStep, Policy } from './types.ts';

// ---- general rules ----

test('success ends the delivery on every preset', () => {
  for (const policy of [PAYMENTS, STANDARD, BRIEF, STRICT]) {
    assert.deepEqual(decide(policy, fresh({ fastFailures: 3 }), { outcome: 'success', status: 200 }, 10, half), {
      kind: 'succeed',
    });
  }
});

test('a delay counts from the end of the previous attempt (10 s timeout + 1 s → 11 s after the first began)', () => {
  const { at } = starts(PAYMENTS, ['timeout', 200]);
  assert.deepEqual(at, [0, 11 * S]);
});

test('decide fills firstAttemptAt with now when progress has none, and keeps an existing one', () => {
  assert.equal(
    retry(decide(STANDARD, startProgress(0, false), { outcome: 'delivery_failure' }, 7, half)).progress.firstAttemptAt,
    7,
  );
  assert.equal(
    retry(decide(STANDARD, fresh({ firstAttemptAt: 3 }), { outcome: 'delivery_failure' }, 7, half)).progress
      .firstAttemptAt,
    3,
  );
});

test('decide does not mutate the progress it is given', () => {
  const progress = Object.freeze(fresh({ isMoney: true }));
  decide(PAYMENTS, progress, { outcome: 'client_error', status: 404 }, 5, half);
  decide(PAYMENTS, progress, { outcome: 'delivery_failure', status: 500 }, 5, half);
  assert.deepEqual(progress, fresh({ isMoney: true }));
});

// ---- Retry-After ----

test('Retry-After raises the pause and is capped by the policy', () => {
  const base = fresh();
  // standard: first pause 5 s; Retry-After 120 s on a 429 → 120 s.
  assert.equal(
    retry(decide(STANDARD, base, { outcome: 'delivery_failure', status: 429, retryAfterMs: 120 * S }, 0, half)).at,
    120 * S,
  );
  // 503 counts too.
  assert.equal(
    retry(decide(STANDARD, base, { outcome: 'delivery_failure', status: 503, retryAfterMs: 60 * S }, 0, half)).at,
    60 * S,
  );
  // It never shortens a pause.
  assert.equal(
    retry(
      decide(
        STANDARD,
        fresh({ fastFailures: 2 }),
        { outcome: 'delivery_failure', status: 429, retryAfterMs: 1 * S },
        0,
        half,
      ),
    ).at,
    30 * MIN,
  );
  // Capped: standard at 10 h, payments at 256 s, brief at 30 min, strict at 1 h.
  assert.equal(
    retry(decide(STANDARD, base, { outcome: 'delivery_failure', status: 429, retryAfterMs: 3 * DAY }, 0, half)).at,
    10 * H,
  );
  assert.equal(
    retry(decide(PAYMENTS, base, { outcome: 'delivery_failure', status: 429, retryAfterMs: 1 * H }, 0, half)).at,
    256 * S,
  );
  assert.equal(
    retry(decide(BRIEF, base, { outcome: 'delivery_failure', status: 503, retryAfterMs: 2 * H }, 0, half)).at,
    30 * MIN,
  );
  assert.equal(
    retry(decide(STRICT, base, { outcome: 'delivery_failure', status: 429, retryAfterMs: 5 * H }, 0, half)).at,
    1 * H,
  );
});

test('Retry-After is ignored on other statuses and when the policy does not honour it', () => {
  assert.equal(
    retry(decide(STANDARD, fresh(), { outcome: 'delivery_failure', status: 500, retryAfterMs: 120 * S }, 0, half)).at,
    5 * S,
  );
  const deaf: Policy = { ...STANDARD, retryAfter: { honour: false, maxMs: 10 * H } };
  assert.equal(
    retry(decide(deaf, fresh(), { outcome: 'delivery_failure', status: 429, retryAfterMs: 120 * S }, 0, half)).at,
    5 * S,
  );
});

test('Retry-After applies after jitter: the pause is at least what was asked', () => {
  const step = retry(
    decide(
      STANDARD,
      fresh({ fastFailures: 1 }),
      { outcome: 'delivery_failure', status: 429, retryAfterMs: 5 * MIN },
      0,
      () => 0,
    ),
  );
  assert.equal(step.at, 5 * MIN); // jittered 4 min raised to 5 min
});

// ---- standard ----

test('standard: 8 attempts, pauses 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (≈ 27.5 h) with random at 0.5', () => {
  const { at, end } = starts(STANDARD, [500]);
  assert.equal(at.length, 8);
  const pauses = at.slice(1).map((t, i) => t - at[i]);
  assert.deepEqual(pauses, [5 * S, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 10 * H]);
  assert.equal(at[7], 27 * H + 35 * MIN + 5 * S);
  const fail = failed(end as NextStep);
  assert.equal(fail.reason, 'all 8 attempts failed');
  assert.equal(fail.progress.fastFailures, 8);
});

test('standard: every pause is jittered within ±20 % and a seed repeats the schedule', () => {
  const nominal = [5 * S, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 10 * H];
  for (const seed of [1, 2, 3, 42, 1234]) {
    const { at } = starts(STANDARD, [503], { random: seededRandom(seed) });
    assert.equal(at.length, 8);
    at.slice(1).forEach((t, i) => {
      const pause = t - at[i];
      assert.ok(pause >= nominal[i] * 0.8 && pause <= nominal[i] * 1.2, `seed ${seed} pause ${i}: ${pause}`);
    });
    assert.deepEqual(starts(STANDARD, [503], { random: seededRandom(seed) }).at, at);
  }
  // The extremes of random map to the edges of the band.
  assert.equal(
    retry(decide(STANDARD, fresh({ fastFailures: 1 }), { outcome: 'delivery_failure' }, 0, () => 0)).at,
    4 * MIN,
  );
  assert.equal(
    retry(decide(STANDARD, fresh({ fastFailures: 1 }), { outcome: 'delivery_failure' }, 0, () => 1)).at,
    6 * MIN,
  );
});

test('standard: 3xx, 4xx, 5xx, timeouts and network errors all retry', () => {
  for (const step of [301, 302, 400, 401, 404, 410, 422, 429, 500, 502, 503, 'timeout', 'connection'] as const) {
    const { at } = starts(STANDARD, [step]);
    assert.equal(at.length, 8, String(step));
  }
});

test('standard: succeeds mid-ladder', () => {
  const { at, end } = starts(STANDARD, [500, 404, 200]);
  assert.deepEqual(at, [0, 5 * S, 5 * S + 5 * MIN]);
  assert.deepEqual(end, { kind: 'succeed' });
});

// ---- brief ----

test('brief: 0, 30 s, 5 min 30 s, 35 min 30 s, then failed', () => {
  const { at, end } = starts(BRIEF, [500]);
  assert.deepEqual(at, [0, 30 * S, 5 * MIN + 30 * S, 35 * MIN + 30 * S]);
  assert.equal(failed(end as NextStep).reason, 'all 4 attempts failed');
});

test('brief: any non-2xx retries, 4xx included', () => {
  assert.deepEqual(starts(BRIEF, [404]).at, [0, 30 * S, 5 * MIN + 30 * S, 35 * MIN + 30 * S]);
  assert.deepEqual(starts(BRIEF, [302]).at.length, 4);
});

// ---- strict ----

test('strict: 30 s, 2 min, 10 min, 1 h, then hourly until the 24 h window ends', () => {
  const { at, end } = starts(STRICT, ['timeout'], { durationMs: 0 });
  const tail = 1 * H + 12 * MIN + 30 * S;
  const expected = [0, 30 * S, 2 * MIN + 30 * S, 12 * MIN + 30 * S];
  for (let t = tail; t <= 24 * H; t += H) expected.push(t);
  // A timeout takes the policy's 10 s, and delays count from the end of the attempt.
  assert.deepEqual(
    at,
    expected.map((t, i) => t + i * STRICT.timeoutMs),
  );
  const fail = failed(end as NextStep);
  assert.equal(fail.reason, '24h retry window ended');
  assert.equal(fail.code, 'window_ended');
});

test('strict: with instant attempts the last one is 23 h 12 min 30 s after the first', () => {
  const { at } = starts(STRICT, [503]);
  assert.equal(at.length, 27);
  assert.equal(at.at(-1), 23 * H + 12 * MIN + 30 * S);
});

test('strict: 404 fails at once with the reason; 3xx too', () => {
  const fail = failed(decide(STRICT, fresh(), { outcome: 'client_error', status: 404 }, 0, half));
  assert.equal(fail.reason, 'client error 404 is permanent');
  assert.equal(fail.code, 'permanent_client_error');
  assert.equal(
    failed(decide(STRICT, fresh(), { outcome: 'client_error', status: 301 }, 0, half)).reason,
    'client error 301 is permanent',
  );
  assert.equal(
    failed(decide(STRICT, fresh(), { outcome: 'client_error' }, 0, half)).reason,
    'client error is permanent',
  );
});

test('strict: 429, 503, 500, timeouts and connection errors retry', () => {
  for (const status of [429, 503, 500]) {
    assert.equal(retry(decide(STRICT, fresh(), { outcome: 'delivery_failure', status }, 0, half)).at, 30 * S);
  }
  assert.equal(retry(decide(STRICT, fresh(), { outcome: 'delivery_failure' }, 0, half)).at, 30 * S);
});

test('strict: jitter stays within ±10 %', () => {
  assert.equal(retry(decide(STRICT, fresh(), { outcome: 'delivery_failure' }, 0, () => 0)).at, 27 * S);
  assert.equal(retry(decide(STRICT, fresh(), { outcome: 'delivery_failure' }, 0, () => 1)).at, 33 * S);
});

test('strict: the window counts from the first attempt, not creation', () => {
  const { at } = starts(STRICT, [503], { createdAt: 0, firstAttemptAt: 10 * DAY });
  assert.equal(at.length, 27);
});

// ---- helpers ----

test('ladderBudget: delays + 1 by default, maxFailures when given, unbounded with repeatLast', () => {
  assert.equal(ladderBudget(STANDARD.fast), 8);
  assert.equal(ladderBudget(BRIEF.fast), 4);
  assert.equal(ladderBudget(PAYMENTS.fast), 10);
  assert.equal(ladderBudget(PAYMENTS.slow!), 6);
  assert.equal(ladderBudget(STRICT.fast), Number.POSITIVE_INFINITY);
});

test('planTimeline cuts off a policy that would go on past maxAttempts', () => {
  const endless: Policy = { ...STRICT, fast: { delaysMs: [1 * S], repeatLast: true } };
  const { at, end } = starts(endless, [500], { maxAttempts: 5 });
  assert.equal(at.length, 5);
  assert.deepEqual(end, { kind: 'cut_off', at: 5 * S, ladder: 'fast' });
});
