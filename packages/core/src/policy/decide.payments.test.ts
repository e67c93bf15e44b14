// The retry decision on the payments preset: its fast and slow ladders, the 48 h ceiling and the 30-day age limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { failed, fresh, half, retry, starts } from '../../testing/decisions.ts';
import { DAY, H, MIN, S } from '../../testing/time.ts';
import { ageLimitReason, decide, maxAgeExceeded } from './decide.ts';
import { PAYMENTS, STANDARD } from './presets.ts';
import type { NextStep } from './types.ts';

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
