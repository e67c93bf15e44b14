// One claimed delivery's way through an attempt: admission (pause, breaker, age limit), signing, the send, the
// record through the group commit, and the report to the breaker, health and observers. The dispatcher's lanes decide
// when it starts; this decides what it does.
import { isEgressFailure } from '../domain.ts';
import type { SendResult } from '../http/sender.ts';
import type { Policy } from '../policy/types.ts';
import type { ClaimedDelivery } from '../store/store.ts';
import { admitWithAgeLimit } from './admission.ts';
import { AttemptRecorder } from './attempt-recorder.ts';
import { traceAttempt } from './attempt-trace.ts';
import { attemptLogFields, attemptRecord, attemptTrigger, sendTimeoutMs, signedRequest } from './delivery-attempt.ts';
import type { ResolvedOptions } from './dispatcher-options.ts';
import { HeldDeliveries } from './held-deliveries.ts';
import type { DispatchObserver } from './observers.ts';

/** The terminal reason of a delivery still in progress when its endpoint paused (docs/rules.md#paused-endpoint): replayable as `failed`. */
export const ENDPOINT_PAUSED = 'endpoint_paused';

export class AttemptPipeline {
  readonly workerId: string;
  readonly #o: ResolvedOptions;
  readonly #observers: readonly DispatchObserver[];
  readonly #recorder: AttemptRecorder;
  readonly #holds: HeldDeliveries;
  /** Deleted while its delivery waited (the dispatcher's record of deleted endpoints and tenants). */
  readonly #isGone: (c: ClaimedDelivery) => boolean;

  /** `observers` is the dispatcher's own list: one added later hears this pipeline's attempts too. */
  constructor(
    o: ResolvedOptions,
    workerId: string,
    observers: readonly DispatchObserver[],
    isGone: (c: ClaimedDelivery) => boolean,
  ) {
    this.#o = o;
    this.workerId = workerId;
    this.#observers = observers;
    this.#recorder = new AttemptRecorder(o);
    this.#holds = new HeldDeliveries(o, workerId);
    this.#isGone = isGone;
  }

  #policyFor(c: ClaimedDelivery): Policy {
    return this.#o.policies.get(c.endpoint.policy) ?? this.#o.policies.default();
  }

  /** Ends a claimed delivery as `failed` without an attempt. */
  async #fail(c: ClaimedDelivery, reason: string, now: number): Promise<void> {
    await this.#o.store.queue.endDeliveries([c.delivery.id], this.workerId, 'failed', reason, now);
    for (const ob of this.#observers) ob.ended?.(c, 'failed', reason);
  }

  /**
   * Takes one claimed delivery through its attempt. `freeSlot` gives its endpoint's send slot back (at a success's
   * response, else once recorded), `sent` reports the send's duration, `feedback` the response for adaptive concurrency.
   */
  async process(
    c: ClaimedDelivery,
    claimedAt: number,
    freeSlot: () => void,
    sent: (ms: number) => void,
    feedback: (result: SendResult, durationMs: number) => void,
  ): Promise<void> {
    const o = this.#o;
    const policy = this.#policyFor(c);
    const now = o.clock.now();
    const isReplay = c.replayId !== null;
    const timeoutMs = sendTimeoutMs(c, policy);

    // Queued so long behind a slow endpoint that the lease could now lapse mid-send (though it was long enough when
    // claimed) and another worker take the row: leave it; the sweeper hands it back and it is claimed afresh.
    const lease = c.delivery.leaseUntil;
    if (lease !== null && claimedAt + timeoutMs <= lease && now + timeoutMs > lease) return;

    // A delivery still in progress when its endpoint paused (manually, by health, or on a 410) failed before the
    // pause: `failed`, never `skipped`, so the default window replay after reactivation recovers it (docs/rules.md#paused-endpoint).
    // Only events that arrive while paused are `skipped`, and those are never claimed. A paused endpoint is not
    // attempted, replays included: one scheduled before the pause ends the same way, counted failed by its replay.
    if (c.endpoint.status === 'paused') return this.#fail(c, ENDPOINT_PAUSED, now);
    let probe = false;
    if (!isReplay) {
      const admission = await admitWithAgeLimit(o.gate, c, policy, now);
      if (admission.kind === 'hold') {
        await this.#holds.submit({ id: c.delivery.id, until: admission.until });
        for (const ob of this.#observers) ob.held?.(c, admission.until);
        return;
      }
      if (admission.kind === 'fail') return this.#fail(c, admission.reason, now);
      probe = admission.probe;
    }

    const request = signedRequest(c, await o.secrets.live(c.endpoint.id, c.endpoint.version, now), now, timeoutMs);
    // Deleted while this delivery waited for its send (admission, secrets): it is not sent.
    if (this.#isGone(c)) return;
    const startedAt = now;
    const span = o.tracer === null ? null : traceAttempt(o.tracer, c, attemptTrigger(c, probe), request.headers, now);
    const egress = o.egress === undefined ? undefined : await o.egress.of(c.endpoint.id, c.endpoint.version);
    const result = await o.sender.send(egress === undefined ? request : { ...request, ...egress });
    // A success frees its slot at once: the healthy path never waits on a commit. A failure keeps it until the
    // breaker and health have seen the record, so a failing endpoint is not flooded while its verdict is pending.
    if (result.outcome === 'success') freeSlot();
    const endedAt =
      result.simulatedDurationMs !== undefined
        ? startedAt + result.simulatedDurationMs
        : Math.max(o.clock.now(), startedAt);
    sent(endedAt - startedAt);
    // An egress failure (docs/rules.md#egress-failures) is no verdict on the receiver: not for its concurrency either.
    const egressFailed = isEgressFailure(result.errorClass);
    if (!egressFailed) feedback(result, endedAt - startedAt);
    const record = attemptRecord(
      c,
      policy,
      request.headers,
      result,
      startedAt,
      endedAt,
      probe,
      isReplay ? null : o.gate.scopeKey(c, policy),
      this.workerId,
      o.random,
      o.noticeReopenWindowMs,
    );
    const { attempt, next } = record;
    if (span !== null) {
      attempt.traceId = span.traceId;
      span.end(result, next.status);
    }
    const transitions = await this.#recorder.submit(record);
    // A probe still reports (one that could not reach the receiver keeps the breaker open); other egress failures don't.
    if (!egressFailed || probe) await o.gate.afterAttempt(c, policy, attempt, probe, o.clock.now());

    if (o.logAttempts) o.logger.log('info', 'attempt', attemptLogFields(c, record, result));
    for (const ob of this.#observers) {
      ob.attempt?.({ attempt, claimed: c, next, probe });
      for (const t of transitions) ob.health?.(t);
    }
  }
}
