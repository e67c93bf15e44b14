import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY, H, MIN, S } from '../../testing/time.ts';
import { ageLimitReason, decide, ladderBudget, maxAgeExceeded, startProgress } from './decide.ts';
import { BRIEF, PAYMENTS, STANDARD, STRICT } from './presets.ts';
import { seededRandom } from './random.ts';
import { planTimeline } from './timeline.ts';
import type { DeliveryProgress, NextStep, Policy } from './types.ts';

const half = () => 0.5; // jitter factor exactly 1

function starts(
  policy: Policy,
  script: Parameters<typeof planTimeline>[1],
  options: Parameters<typeof planTimeline>[2] = {},
) {
  const timeline = planTimeline(policy, script, options);
  return { at: timeline.attempts.map((a) => a.startedAt), end: timeline.end, timeline };
}

function retry(step: NextStep): Extract<NextStep, { kind: 'retry' }> {
  assert.equal(step.kind, 'retry', `expected retry, got ${JSON.stringify(step)}`);
  return step as Extract<NextStep, { kind: 'retry' }>;
}

function failed(step: NextStep): Extract<NextStep, { kind: 'fail' }> {
  assert.equal(step.kind, 'fail', `expected fail, got ${JSON.stringify(step)}`);
  return step as Extract<NextStep, { kind: 'fail' }>;
}

const fresh = (over: Partial<DeliveryProgress> = {}): DeliveryProgress => ({
  ...startProgress(0, false),
  firstAttemptAt: 0,
  ...over,
});

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

// ---- payments: fast ladder ----

test('payments: 10 delivery failures → failed, pauses 1, 2, 4 … 256 s summing to 511 s', () => {
  const { at, end, timeline } = starts(PAYMENTS, [500]);
  assert.equal(at.length, 10);
  const pauses = at.slice(1).map((t, i) => t - at[i]);
  assert.deepEqual(
    pauses,
    [1, 2, 4, 8, 16, 32, 64, 128, 256].map((s) => s * S),
  );
  assert.equal(
    pauses.reduce((a, b) => a + b, 0),
    511 * S,
  );
  assert.equal(end.kind, 'fail');
  assert.equal(end.kind === 'fail' && end.reason, '10 delivery failures, fast-ladder budget spent');
  assert.equal(end.kind === 'fail' && end.code, 'budget_spent');
  assert.equal(end.kind === 'fail' && end.progress.fastFailures, 10);
  assert.ok(timeline.attempts.slice(0, 9).every((a) => a.next.kind === 'retry' && a.next.ladder === 'fast'));
});

test('payments: timeouts and connection errors use the fast ladder too', () => {
  const { at } = starts(PAYMENTS, ['connection', 'connection', 200]);
  assert.deepEqual(at, [0, 1 * S, 3 * S]);
});

test('payments: 429 on a money event is a delivery failure and uses the fast ladder', () => {
  const step = retry(decide(PAYMENTS, fresh({ isMoney: true }), { outcome: 'delivery_failure', status: 429 }, 0, half));
  assert.equal(step.ladder, 'fast');
  assert.equal(step.at, 1 * S);
  assert.equal(step.progress.fastFailures, 1);
  assert.equal(step.progress.slowFailures, 0);
  assert.equal(step.progress.slowStartedAt, null);
  // Even if a caller mislabels 429 as a client error, it stays on the fast ladder.
  const mislabelled = retry(
    decide(PAYMENTS, fresh({ isMoney: true }), { outcome: 'client_error', status: 429 }, 0, half),
  );
  assert.equal(mislabelled.ladder, 'fast');
});

// ---- payments: slow ladder ----

test('payments example: 500, 500, 404, 404, … → 0 s, 1 s, 3 s, +15 min, +1 h, +4 h, +12 h, +24 h, failed after the 8th', () => {
  const { at, end, timeline } = starts(PAYMENTS, [500, 500, 404], { isMoney: true });
  const t3 = 3 * S;
  assert.deepEqual(at, [
    0,
    1 * S,
    t3,
    t3 + 15 * MIN,
    t3 + 75 * MIN,
    t3 + 5 * H + 15 * MIN,
    t3 + 17 * H + 15 * MIN,
    t3 + 41 * H + 15 * MIN,
  ]);
  assert.deepEqual(
    timeline.attempts.slice(0, 7).map((a) => a.next.kind === 'retry' && a.next.ladder),
    ['fast', 'fast', 'slow', 'slow', 'slow', 'slow', 'slow'],
  );
  const fail = failed(end as NextStep);
  assert.equal(fail.reason, '6 client errors on a money event, slow-ladder budget spent');
  assert.equal(fail.code, 'budget_spent');
  assert.equal(fail.progress.slowFailures, 6);
  assert.equal(fail.progress.fastFailures, 2);
  assert.equal(fail.progress.slowStartedAt, t3);
});

test('payments: the slow ladder pauses sum to ≈ 41 h (15 min + 1 h + 4 h + 12 h + 24 h)', () => {
  const { at } = starts(PAYMENTS, [404], { isMoney: true });
  assert.equal(at.length, 6);
  assert.equal(at[5] - at[0], 41 * H + 15 * MIN);
});

test('payments: the ladders have separate budgets (slow steps spend no fast attempts and vice versa)', () => {
  // Alternate: every 404 moves the slow ladder, every 500 the fast one; each keeps its own count.
  let progress = fresh({ isMoney: true });
  let now = 0;
  const seen: string[] = [];
  for (const status of [404, 500, 404, 500, 404, 500, 404, 500]) {
    const outcome =
      status === 404
        ? ({ outcome: 'client_error', status } as const)
        : ({ outcome: 'delivery_failure', status } as const);
    const step = retry(decide(PAYMENTS, progress, outcome, now, half));
    seen.push(`${step.ladder}:${step.at - now}`);
    progress = step.progress;
    now = step.at;
  }
  assert.deepEqual(seen, [
    `slow:${15 * MIN}`,
    `fast:${1 * S}`,
    `slow:${1 * H}`,
    `fast:${2 * S}`,
    `slow:${4 * H}`,
    `fast:${4 * S}`,
    `slow:${12 * H}`,
    `fast:${8 * S}`,
  ]);
  assert.equal(progress.fastFailures, 4);
  assert.equal(progress.slowFailures, 4);
  // Nine fast failures still leave the slow ladder untouched, and the reverse.
  const fastSpent = retry(
    decide(
      PAYMENTS,
      fresh({ isMoney: true, fastFailures: 9, slowStartedAt: null }),
      { outcome: 'client_error', status: 404 },
      0,
      half,
    ),
  );
  assert.equal(fastSpent.ladder, 'slow');
  assert.equal(fastSpent.at, 15 * MIN);
  const slowSpent = retry(
    decide(
      PAYMENTS,
      fresh({ isMoney: true, slowFailures: 5, slowStartedAt: 0 }),
      { outcome: 'delivery_failure', status: 503 },
      10,
      half,
    ),
  );
  assert.equal(slowSpent.ladder, 'fast');
  assert.equal(slowSpent.at, 10 + 1 * S);
});

test('payments: a client error on a non-money event fails at once with the status in the reason', () => {
  const fail = failed(decide(PAYMENTS, fresh({ isMoney: false }), { outcome: 'client_error', status: 404 }, 5, half));
  assert.equal(fail.reason, 'client error 404 on a non-money event is permanent');
  assert.equal(fail.code, 'permanent_client_error');
  assert.equal(fail.progress.slowFailures, 0);
  const { at, end } = starts(PAYMENTS, [500, 400]);
  assert.deepEqual(at, [0, 1 * S]);
  assert.equal(end.kind, 'fail');
});

test('payments: a 3xx on a money event takes the slow ladder (client error)', () => {
  const step = retry(decide(PAYMENTS, fresh({ isMoney: true }), { outcome: 'client_error', status: 301 }, 0, half));
  assert.equal(step.ladder, 'slow');
});

test('payments: the 48 h ceiling counts from the first client error, not creation (an event that waited 3 days gets the whole ladder)', () => {
  const { at, end } = starts(PAYMENTS, [404], { isMoney: true, createdAt: 0, firstAttemptAt: 3 * DAY });
  assert.equal(at.length, 6);
  assert.equal(at[5], 3 * DAY + 41 * H + 15 * MIN);
  assert.equal(end.kind === 'fail' && end.code, 'budget_spent');
});

test('payments: the 48 h ceiling fails a slow step that would land past it', () => {
  // Slow ladder began at 0; the 5th client error at 30 h would schedule +24 h = 54 h > 48 h.
  const fail = failed(
    decide(
      PAYMENTS,
      fresh({ isMoney: true, slowFailures: 4, slowStartedAt: 0 }),
      { outcome: 'client_error', status: 404 },
      30 * H,
      half,
    ),
  );
  assert.equal(fail.reason, '48h slow-ladder window ended');
  assert.equal(fail.code, 'window_ended');
  assert.equal(fail.progress.slowFailures, 5);
  // Exactly at the ceiling is still allowed.
  const edge = retry(
    decide(
      PAYMENTS,
      fresh({ isMoney: true, slowFailures: 4, slowStartedAt: 0 }),
      { outcome: 'client_error', status: 404 },
      24 * H,
      half,
    ),
  );
  assert.equal(edge.at, 48 * H);
});

test('payments: the 30-day age limit fails whatever the ladder', () => {
  const createdAt = 0;
  const now = 30 * DAY - 500;
  const fast = failed(
    decide(PAYMENTS, fresh({ createdAt, isMoney: true }), { outcome: 'delivery_failure', status: 500 }, now, half),
  );
  assert.equal(fast.reason, '30-day age limit reached');
  assert.equal(fast.code, 'age_limit');
  const slow = failed(
    decide(
      PAYMENTS,
      fresh({ createdAt, isMoney: true, firstAttemptAt: 29 * DAY }),
      { outcome: 'client_error', status: 404 },
      now,
      half,
    ),
  );
  assert.equal(slow.reason, '30-day age limit reached');
  // A slow step that fits the 48 h ceiling but not the age limit: age wins.
  const mixed = failed(
    decide(
      PAYMENTS,
      fresh({ createdAt, isMoney: true, slowFailures: 1, slowStartedAt: 30 * DAY - 2 * H }),
      { outcome: 'client_error', status: 404 },
      30 * DAY - 30 * MIN,
      half,
    ),
  );
  assert.equal(mixed.code, 'age_limit');
  // Just inside the limit still retries.
  assert.equal(
    decide(PAYMENTS, fresh({ createdAt }), { outcome: 'delivery_failure', status: 500 }, 30 * DAY - 1 * S, half).kind,
    'retry',
  );
});

test('maxAgeExceeded tells held deliveries when the age limit has passed', () => {
  assert.equal(maxAgeExceeded(PAYMENTS, { createdAt: 0 }, 30 * DAY), false);
  assert.equal(maxAgeExceeded(PAYMENTS, { createdAt: 0 }, 30 * DAY + 1), true);
  assert.equal(maxAgeExceeded(STANDARD, { createdAt: 0 }, 365 * DAY), false); // no age limit
  assert.equal(ageLimitReason(PAYMENTS), '30-day age limit reached');
  assert.equal(ageLimitReason({ ...PAYMENTS, maxAgeMs: 36 * H }), '36h age limit reached');
});

test('payments has no jitter: the schedule is exact whatever random says', () => {
  const a = starts(PAYMENTS, [500], { random: () => 0 }).at;
  const b = starts(PAYMENTS, [500], { random: () => 0.999 }).at;
  assert.deepEqual(a, b);
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
