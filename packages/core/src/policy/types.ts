// Retry policies are data: ladders of delays, jitter, timeout, which outcomes retry, limits, breaker and health rules.

/** How one attempt ended, per docs/rules.md#outcome-classes: 2xx; timeout/network/5xx/429; 3xx/other 4xx. */
export const OUTCOME_CLASSES = ['success', 'delivery_failure', 'client_error'] as const;
export type OutcomeClass = (typeof OUTCOME_CLASSES)[number];

/** `fast` schedules after delivery failures; `slow` after client errors on money events (payments). */
export type Ladder = 'fast' | 'slow';

export interface LadderSpec {
  /** delaysMs[k-1] is the pause after the k-th failure counted on this ladder. */
  readonly delaysMs: readonly number[];
  /** The failure on this ladder that ends the delivery (payments fast: 10). Default: delaysMs.length + 1; with repeatLast, no count limit (a window or maxAgeMs ends it). */
  readonly maxFailures?: number;
  /** Once delaysMs runs out, keep pausing by its last entry (strict: hourly) until another limit ends it. */
  readonly repeatLast?: boolean;
  /** No attempt on this ladder later than windowMs after windowFrom. */
  readonly windowMs?: number;
  /** `ladder_start`: the end of the attempt whose failure first moved the delivery onto this ladder (slow ladder only).
   *  Default: `first_attempt` on the fast ladder, `ladder_start` on the slow one. */
  readonly windowFrom?: 'created' | 'first_attempt' | 'ladder_start';
}

export interface BreakerRule {
  readonly scope: 'tenant' | 'endpoint';
  readonly windowMs: number; // sliding window, 5 min
  /** Distinct deliveries attempted in the window before it can trip (each counted once, by its latest attempt): 5. */
  readonly minAttempts: number;
  readonly failureRatio: number; // 0.8
  readonly pauseMs: number; // first pause, 5 min
  readonly maxPauseMs: number; // cap, 30 min
  readonly recheckMs: number; // held deliveries re-check about every 30 s
}

export interface HealthRule {
  /** Pause a degraded endpoint after this long of uninterrupted failure (standard: 5 days). */
  readonly pauseAfterFailingMs?: number;
  /** Suspend after this many consecutive failed events since the last success (brief: 50). */
  readonly suspendAfterConsecutiveFailedEvents?: number;
  /** A 410 Gone pauses the endpoint at once (reason `gone`). */
  readonly pauseOnGone: boolean;
}

export interface Policy {
  readonly name: string;
  readonly timeoutMs: number;
  readonly maxConcurrency: number;
  /** Each pause is randomized by up to ±jitter (0.2 = ±20 %). */
  readonly jitter: number;
  readonly fast: LadderSpec;
  readonly slow?: LadderSpec;
  /** What a client error (3xx, 4xx other than 429) does: retry on the fast ladder, fail at once, or use the slow ladder for money events and fail otherwise. */
  readonly clientErrors: 'retry' | 'fail' | 'slow_for_money';
  /** `Retry-After` on 429/503 makes the next pause at least that long, capped at maxMs. */
  readonly retryAfter: { readonly honour: boolean; readonly maxMs: number };
  /** Absolute age limit from the delivery's creation, whatever else happens (payments: 30 days). */
  readonly maxAgeMs?: number;
  readonly breaker?: BreakerRule;
  readonly health: HealthRule;
}

/** What the retry decision needs to know about a delivery; all times are ms since the epoch. */
export interface DeliveryProgress {
  readonly createdAt: number;
  readonly firstAttemptAt: number | null;
  readonly fastFailures: number;
  readonly slowFailures: number;
  readonly slowStartedAt: number | null;
  readonly isMoney: boolean;
}

export interface AttemptOutcome {
  readonly outcome: OutcomeClass;
  /** HTTP status when a response arrived. */
  readonly status?: number;
  /** Parsed `Retry-After`, in ms from the end of the attempt. */
  readonly retryAfterMs?: number;
}

/** The next step after an attempt: a pure function of (policy, progress, outcome, now, random). */
export type NextStep =
  | { readonly kind: 'succeed' }
  | { readonly kind: 'retry'; readonly at: number; readonly ladder: Ladder; readonly progress: DeliveryProgress }
  | {
      readonly kind: 'fail';
      readonly reason: string;
      readonly code?: FailureCode;
      readonly progress: DeliveryProgress;
    };

/** Why a delivery failed, machine-readable; `reason` is the same in plain English. */
export type FailureCode =
  | 'permanent_client_error' // a client error the policy does not retry
  | 'budget_spent' // the ladder's last allowed failure happened
  | 'window_ended' // the next attempt would fall past the ladder's window
  | 'age_limit'; // the next attempt would fall past the policy's absolute age limit

/** Which events are "money events" (payments slow ladder). Configuration, not code. */
export interface MoneyRule {
  readonly type: string;
  /** Dot path into `data`; when absent, every event of the type is money. */
  readonly field?: string;
  readonly in?: readonly string[];
}
