// The four policies that ship (docs/rules.md#policy-data): payments, standard (the default), brief, strict — frozen data.
import { deepFreeze } from '../deep-freeze.ts';
import type { Policy } from './types.ts';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The policy a new endpoint gets when it names none. */
export const DEFAULT_POLICY = 'standard';

/** Every preset shares these: 20 concurrent requests per endpoint, and a 410 Gone pauses the endpoint. */
const MAX_CONCURRENCY = 20;

/** The payment hub: two independent ladders, a 30-day age limit and a tenant-wide breaker. */
export const PAYMENTS: Policy = deepFreeze({
  name: 'payments',
  timeoutMs: 10 * SECOND,
  maxConcurrency: MAX_CONCURRENCY,
  jitter: 0,
  fast: {
    // After the f-th delivery failure (f = 1..9) wait 2^(f-1) s; the 10th ends it. 511 s of pauses.
    delaysMs: [1, 2, 4, 8, 16, 32, 64, 128, 256].map((s) => s * SECOND),
    maxFailures: 10,
  },
  slow: {
    // After the k-th client error on a money event (k = 1..5); the 6th ends it.
    delaysMs: [15 * MINUTE, HOUR, 4 * HOUR, 12 * HOUR, 24 * HOUR],
    maxFailures: 6,
    // Counted from the first client error, not from creation: an event held for days still gets the whole ladder.
    windowMs: 48 * HOUR,
    windowFrom: 'ladder_start',
  },
  clientErrors: 'slow_for_money',
  // Capped at the fast ladder's longest step (256 s): a receiver asking for longer is down, and the breaker,
  // whose pauses spend no attempts, is the right tool for that — not stretching a 10-attempt budget by hours.
  retryAfter: { honour: true, maxMs: 256 * SECOND },
  maxAgeMs: 30 * DAY,
  breaker: {
    scope: 'tenant',
    windowMs: 5 * MINUTE,
    minAttempts: 5,
    failureRatio: 0.8,
    pauseMs: 5 * MINUTE,
    maxPauseMs: 30 * MINUTE,
    recheckMs: 30 * SECOND,
  },
  health: { pauseOnGone: true },
});

/** The messaging platform: 8 attempts over ≈ 27.5 h, ±20 % jitter, every non-2xx retries. */
export const STANDARD: Policy = deepFreeze({
  name: 'standard',
  timeoutMs: 15 * SECOND,
  maxConcurrency: MAX_CONCURRENCY,
  jitter: 0.2,
  // 7 delays → 8 attempts (default maxFailures = delays + 1).
  fast: { delaysMs: [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR] },
  clientErrors: 'retry',
  // Capped at the ladder's longest step: Retry-After may slow a step down to the policy's slowest pace, never past it.
  retryAfter: { honour: true, maxMs: 10 * HOUR },
  health: { pauseAfterFailingMs: 5 * DAY, pauseOnGone: true },
});

/** The CRM: 4 attempts in 35 min 30 s, then dead letter; 50 consecutive failed events suspend the endpoint. */
export const BRIEF: Policy = deepFreeze({
  name: 'brief',
  timeoutMs: 5 * SECOND,
  maxConcurrency: MAX_CONCURRENCY,
  jitter: 0,
  fast: { delaysMs: [30 * SECOND, 5 * MINUTE, 30 * MINUTE] },
  // The CRM retries any non-2xx, 4xx included.
  clientErrors: 'retry',
  // Capped at the ladder's longest step, so the whole schedule stays within the hour the CRM promises.
  retryAfter: { honour: true, maxMs: 30 * MINUTE },
  health: { suspendAfterConsecutiveFailedEvents: 50, pauseOnGone: true },
});

/** docs/rules.md#preset-strict: 30 s, 2 min, 10 min, 1 h, then hourly, ±10 %, within 24 h; other 4xx, 3xx permanent. */
export const STRICT: Policy = deepFreeze({
  name: 'strict',
  // 10 s like payments: long enough for a receiver that stores then acks.
  timeoutMs: 10 * SECOND,
  maxConcurrency: MAX_CONCURRENCY,
  jitter: 0.1,
  fast: {
    delaysMs: [30 * SECOND, 2 * MINUTE, 10 * MINUTE, HOUR],
    repeatLast: true,
    windowMs: 24 * HOUR,
    windowFrom: 'first_attempt',
  },
  clientErrors: 'fail',
  // Capped at the hourly step; the 24 h window still bounds everything.
  retryAfter: { honour: true, maxMs: HOUR },
  health: { pauseOnGone: true },
});

/** Presets by name, in the order docs/rules.md lists them. */
export const PRESETS: Readonly<Record<string, Policy>> = Object.freeze({
  payments: PAYMENTS,
  standard: STANDARD,
  brief: BRIEF,
  strict: STRICT,
});

export function isPresetName(name: string): boolean {
  return Object.hasOwn(PRESETS, name);
}
