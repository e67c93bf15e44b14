// A delivery's state after one attempt: the retry decision applied to its stored progress (a replay is one attempt).
import type { Delivery } from '../domain.ts';
import type { SendResult } from '../http/sender.ts';
import { decide } from '../policy/decide.ts';
import type { DeliveryProgress, Policy } from '../policy/types.ts';
import type { AttemptRecord } from '../store/store.ts';

export interface NextState {
  next: AttemptRecord['next'];
  progress: AttemptRecord['progress'];
}

/** Pure: same inputs, same answer; `endedAt` is when the attempt ended (a delay counts from there). */
export function nextState(
  policy: Policy,
  d: Delivery,
  result: SendResult,
  startedAt: number,
  endedAt: number,
  isReplay: boolean,
  random: () => number,
): NextState {
  const progress: DeliveryProgress = {
    createdAt: d.createdAt,
    firstAttemptAt: d.firstAttemptAt ?? startedAt,
    fastFailures: d.fastFailures,
    slowFailures: d.slowFailures,
    slowStartedAt: d.slowStartedAt,
    isMoney: d.isMoney,
  };
  const keep = (p: DeliveryProgress) => ({
    fastFailures: p.fastFailures,
    slowFailures: p.slowFailures,
    slowStartedAt: p.slowStartedAt,
    firstAttemptAt: p.firstAttemptAt,
  });
  if (isReplay) {
    // A replay is one attempt now: success ends it, failure leaves it failed (docs/rules.md#replay-one).
    const next: AttemptRecord['next'] =
      result.outcome === 'success'
        ? { status: 'succeeded' }
        : { status: 'failed', reason: `replay failed: ${describeResult(result)}` };
    return { next, progress: keep(progress) };
  }
  const step = decide(
    policy,
    progress,
    { outcome: result.outcome, status: result.status ?? undefined, retryAfterMs: result.retryAfterMs },
    endedAt,
    random,
  );
  if (step.kind === 'succeed') return { next: { status: 'succeeded' }, progress: keep(progress) };
  if (step.kind === 'retry')
    return { next: { status: 'pending', nextAttemptAt: step.at, ladder: step.ladder }, progress: keep(step.progress) };
  return {
    next: { status: 'failed', reason: `${step.reason}; last: ${describeResult(result)}` },
    progress: keep(step.progress),
  };
}

/** "HTTP 503", "timeout after 10000 ms", … for terminal reasons. */
export function describeResult(r: SendResult): string {
  if (r.status !== null && r.outcome !== 'success' && r.errorClass === 'status') return `HTTP ${r.status}`;
  return r.errorMessage ?? r.errorClass ?? (r.status !== null ? `HTTP ${r.status}` : 'unknown');
}
