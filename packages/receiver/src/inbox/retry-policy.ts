// When a failed inbox handler runs again: a pure function of the policy, the failure count and now.

export interface RetryPolicy {
  /** Delay after the first failure, ms. */
  readonly initialDelayMs: number;
  /** Each further failure multiplies the delay by this. */
  readonly factor: number;
  /** The delay never exceeds this, ms. */
  readonly maxDelayMs: number;
  /** Runs in total before the entry goes to the dead letter. */
  readonly maxAttempts: number;
}

/** 1 s doubling up to 10 min, 10 runs in all (about 36 minutes from the first failure to the dead letter). */
export const defaultRetryPolicy: RetryPolicy = Object.freeze({
  initialDelayMs: 1000,
  factor: 2,
  maxDelayMs: 10 * 60_000,
  maxAttempts: 10,
});

export type RetryStep =
  | { readonly kind: 'retry'; readonly at: number; readonly delayMs: number }
  | { readonly kind: 'dead'; readonly reason: string };

/**
 * The next step after a handler failed for the `failures`-th time (1 = its first failure).
 *
 * @example
 * nextRetryStep(defaultRetryPolicy, 1, 0)  // { kind: 'retry', at: 1000, delayMs: 1000 }
 * nextRetryStep(defaultRetryPolicy, 10, 0) // { kind: 'dead', reason: 'failed 10 times' }
 */
export function nextRetryStep(policy: RetryPolicy, failures: number, now: number): RetryStep {
  if (failures >= policy.maxAttempts) return { kind: 'dead', reason: `failed ${failures} times` };
  const delayMs = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.factor ** (failures - 1));
  return { kind: 'retry', at: now + delayMs, delayMs };
}

/**
 * Fills a partial policy from the defaults and checks it once.
 *
 * @example
 * resolveRetryPolicy({ maxAttempts: 3 }) // { initialDelayMs: 1000, factor: 2, maxDelayMs: 600000, maxAttempts: 3 }
 */
export function resolveRetryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy = { ...defaultRetryPolicy, ...overrides };
  const positive = (name: keyof RetryPolicy, min: number) => {
    const value = policy[name];
    if (!Number.isFinite(value) || value < min)
      throw new RangeError(`inbox retry.${name} must be a number ≥ ${min}, got ${String(value)}`);
  };
  positive('initialDelayMs', 0);
  positive('factor', 1);
  positive('maxDelayMs', policy.initialDelayMs);
  positive('maxAttempts', 1);
  if (!Number.isInteger(policy.maxAttempts))
    throw new RangeError(`inbox retry.maxAttempts must be an integer, got ${policy.maxAttempts}`);
  return Object.freeze(policy);
}
