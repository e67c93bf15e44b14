// The retry decision (STYLE habit 5): a pure function from (policy, progress, outcome, now, random) to the next step.
import { formatDuration } from '../duration.ts';
import { retryAfterApplies } from './classify.ts';
import type { AttemptOutcome, DeliveryProgress, FailureCode, Ladder, LadderSpec, NextStep, Policy } from './types.ts';

const DAY = 86_400_000;

/** Progress of a delivery that has not been attempted yet. */
export function startProgress(createdAt: number, isMoney: boolean): DeliveryProgress {
  return { createdAt, firstAttemptAt: null, fastFailures: 0, slowFailures: 0, slowStartedAt: null, isMoney };
}

/**
 * What happens after an attempt that ended at `now` (a delay counts from the end of the previous attempt).
 * `progress.firstAttemptAt` should already hold the first attempt's start; when null, `now` stands in for it.
 * `random` yields [0, 1) and only spreads the pause by ±policy.jitter; pass `seededRandom(n)` to repeat a schedule.
 */
export function decide(
  policy: Policy,
  progress: DeliveryProgress,
  attempt: AttemptOutcome,
  now: number,
  random: () => number = Math.random,
): NextStep {
  if (attempt.outcome === 'success') return { kind: 'succeed' };
  const base: DeliveryProgress = { ...progress, firstAttemptAt: progress.firstAttemptAt ?? now };

  // 429 is a delivery failure whoever classed it (docs/rules.md#outcome-classes): it must never reach the slow ladder or a permanent fail.
  const deliveryFailure = attempt.outcome === 'delivery_failure' || attempt.status === 429;
  if (deliveryFailure || policy.clientErrors === 'retry') return step(policy, 'fast', base, attempt, now, random);

  if (policy.clientErrors === 'slow_for_money' && base.isMoney && policy.slow !== undefined) {
    return step(policy, 'slow', base, attempt, now, random);
  }
  const status = attempt.status === undefined ? 'client error' : `client error ${attempt.status}`;
  const reason =
    policy.clientErrors === 'slow_for_money' && !base.isMoney
      ? `${status} on a non-money event is permanent`
      : `${status} is permanent`;
  return failed(reason, 'permanent_client_error', base);
}

/** True once a delivery is past the policy's absolute age limit; held deliveries (open breaker) check this. */
export function maxAgeExceeded(policy: Policy, progress: Pick<DeliveryProgress, 'createdAt'>, now: number): boolean {
  return policy.maxAgeMs !== undefined && now > progress.createdAt + policy.maxAgeMs;
}

/** The failure reason for a delivery past its age limit, e.g. "30-day age limit reached". */
export function ageLimitReason(policy: Policy): string {
  const ms = policy.maxAgeMs ?? 0;
  return ms > 0 && ms % DAY === 0 ? `${ms / DAY}-day age limit reached` : `${formatDuration(ms)} age limit reached`;
}

/** The failure on a ladder that ends the delivery; unbounded when the ladder repeats its last delay. */
export function ladderBudget(spec: LadderSpec): number {
  return spec.maxFailures ?? (spec.repeatLast ? Number.POSITIVE_INFINITY : spec.delaysMs.length + 1);
}

function step(
  policy: Policy,
  ladder: Ladder,
  base: DeliveryProgress,
  attempt: AttemptOutcome,
  now: number,
  random: () => number,
): NextStep {
  const spec = ladder === 'fast' ? policy.fast : (policy.slow as LadderSpec);
  const count = (ladder === 'fast' ? base.fastFailures : base.slowFailures) + 1;
  const progress: DeliveryProgress =
    ladder === 'fast'
      ? { ...base, fastFailures: count }
      : { ...base, slowFailures: count, slowStartedAt: base.slowStartedAt ?? now };

  if (count >= ladderBudget(spec)) return failed(budgetReason(policy, ladder, count), 'budget_spent', progress);

  const at = now + pause(policy, spec, count, attempt, random);

  // Whichever limit closes first is the one that ended the delivery.
  const limits: { end: number; reason: string; code: FailureCode }[] = [];
  if (spec.windowMs !== undefined) {
    limits.push({
      end: windowStart(spec, ladder, progress) + spec.windowMs,
      reason: windowReason(policy, ladder, spec.windowMs),
      code: 'window_ended',
    });
  }
  if (policy.maxAgeMs !== undefined) {
    limits.push({ end: progress.createdAt + policy.maxAgeMs, reason: ageLimitReason(policy), code: 'age_limit' });
  }
  const crossed = limits.filter((l) => at > l.end).sort((a, b) => a.end - b.end)[0];
  if (crossed) return failed(crossed.reason, crossed.code, progress);

  return { kind: 'retry', at, ladder, progress };
}

function pause(policy: Policy, spec: LadderSpec, count: number, attempt: AttemptOutcome, random: () => number): number {
  // Past the end of the list only a repeatLast ladder gets here (the budget stops the rest); it keeps the last delay.
  const delay = spec.delaysMs[Math.min(count, spec.delaysMs.length) - 1];
  let ms = Math.round(delay * (1 + policy.jitter * (2 * random() - 1)));
  const asked = attempt.retryAfterMs;
  // Retry-After only lengthens a pause, never shortens it, and never beyond the policy's cap.
  if (
    policy.retryAfter.honour &&
    asked !== undefined &&
    asked > 0 &&
    (attempt.status === undefined || retryAfterApplies(attempt.status))
  ) {
    ms = Math.max(ms, Math.min(asked, policy.retryAfter.maxMs));
  }
  return ms;
}

function windowStart(spec: LadderSpec, ladder: Ladder, progress: DeliveryProgress): number {
  const from = spec.windowFrom ?? (ladder === 'slow' ? 'ladder_start' : 'first_attempt');
  if (from === 'created') return progress.createdAt;
  // Only the slow ladder records its start; the fast ladder starts with the first attempt.
  if (from === 'ladder_start' && ladder === 'slow' && progress.slowStartedAt !== null) return progress.slowStartedAt;
  return progress.firstAttemptAt as number;
}

function budgetReason(policy: Policy, ladder: Ladder, count: number): string {
  if (ladder === 'slow') return `${count} client errors on a money event, slow-ladder budget spent`;
  if (policy.slow !== undefined) return `${count} delivery failures, fast-ladder budget spent`;
  return `all ${count} attempts failed`;
}

function windowReason(policy: Policy, ladder: Ladder, windowMs: number): string {
  return policy.slow === undefined
    ? `${formatDuration(windowMs)} retry window ended`
    : `${formatDuration(windowMs)} ${ladder}-ladder window ended`;
}

function failed(reason: string, code: FailureCode, progress: DeliveryProgress): NextStep {
  return { kind: 'fail', reason, code, progress };
}
