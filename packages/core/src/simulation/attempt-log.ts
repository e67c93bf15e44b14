// Records what the engine did during a simulation, through its DispatchObserver hooks: attempts and transitions.
import type { DispatchObserver } from '../dispatch/observers.ts';
import type { BreakerTransition } from '../domain.ts';
import type { HealthTransition } from '../store/store.ts';
import { labelOfAttempt } from './scripted-response.ts';

export interface SimAttempt {
  /** Order of arrival among everything the log recorded (ties in time keep the engine's order). */
  readonly seq: number;
  readonly deliveryId: string;
  readonly eventId: string;
  readonly n: number;
  /** Start of the attempt, ms since t = 0. */
  readonly atMs: number;
  readonly durationMs: number;
  /** The ladder that scheduled this attempt; the first attempt is on `fast`. */
  readonly ladder: string;
  readonly trigger: string;
  readonly response: string;
  readonly outcome: string;
  readonly next:
    | { readonly status: 'pending'; readonly atMs: number; readonly ladder: string }
    | { readonly status: 'succeeded' }
    | { readonly status: 'failed'; readonly reason: string };
}

/** What a simulated delivery does after an attempt: the `next.status` of a SimAttempt. */
export const SIM_NEXT_STATUSES = [
  'pending',
  'succeeded',
  'failed',
] as const satisfies readonly SimAttempt['next']['status'][];

/** A breaker or endpoint-health change. */
export interface SimTransition {
  readonly seq: number;
  readonly atMs: number;
  /** `tenant` or `endpoint` for the breaker; `endpoint` for health. */
  readonly scope: string;
  readonly kind: 'breaker' | 'health';
  readonly subject: string;
  readonly from: string;
  readonly to: string;
  readonly reason?: string;
}

/** A delivery that ended without an attempt (age limit while held, endpoint paused). */
export interface SimEnded {
  readonly deliveryId: string;
  readonly atMs: number;
  readonly status: 'failed' | 'skipped';
  readonly reason: string;
}

export class AttemptLog {
  readonly attempts: SimAttempt[] = [];
  readonly transitions: SimTransition[] = [];
  readonly ended: SimEnded[] = [];
  /** Each time a due delivery was put back to wait on an open breaker (no attempt spent). */
  readonly held: Array<{
    readonly seq: number;
    readonly deliveryId: string;
    readonly atMs: number;
    readonly untilMs: number;
  }> = [];
  #seq = 0;
  #start = 0;
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** t = 0 for every time this log records. */
  setStart(start: number): void {
    this.#start = start;
  }

  rel(ms: number): number {
    return ms - this.#start;
  }

  /**
   * An operator's action on the endpoint (a scenario's pause or reactivate): the engine's observers report only the
   * transitions health causes, so the simulation records the ones it makes by hand, in the same list.
   */
  operator(endpointId: string, from: string, to: string, reason: string): void {
    this.transitions.push({
      seq: this.#seq++,
      atMs: this.rel(this.#now()),
      scope: 'endpoint',
      kind: 'health',
      subject: endpointId,
      from,
      to,
      reason,
    });
  }

  readonly observer: DispatchObserver = {
    attempt: ({ attempt, claimed, next }) => {
      this.attempts.push({
        seq: this.#seq++,
        deliveryId: attempt.deliveryId,
        eventId: claimed.delivery.eventId,
        n: attempt.n,
        atMs: this.rel(attempt.startedAt),
        durationMs: attempt.durationMs,
        ladder: claimed.delivery.ladder ?? 'fast',
        trigger: attempt.trigger,
        response: labelOfAttempt(attempt),
        outcome: attempt.outcome,
        next:
          next.status === 'pending'
            ? { status: 'pending', atMs: this.rel(next.nextAttemptAt), ladder: next.ladder }
            : next.status === 'failed'
              ? { status: 'failed', reason: next.reason }
              : { status: 'succeeded' },
      });
    },
    health: (t: HealthTransition) => {
      this.transitions.push({
        seq: this.#seq++,
        atMs: this.rel(t.at),
        scope: 'endpoint',
        kind: 'health',
        subject: t.endpointId,
        from: t.from,
        to: t.to,
        reason: t.reason,
      });
    },
    held: (claimed, until) => {
      this.held.push({
        seq: this.#seq++,
        deliveryId: claimed.delivery.id,
        atMs: this.rel(this.#now()),
        untilMs: this.rel(until),
      });
    },
    ended: (claimed, status, reason) => {
      this.ended.push({ deliveryId: claimed.delivery.id, atMs: this.rel(this.#now()), status, reason });
    },
    breaker: (t: BreakerTransition) => {
      const subject = t.scopeKey.slice(t.scopeKey.indexOf(':') + 1) || t.tenantId;
      this.transitions.push({
        seq: this.#seq++,
        atMs: this.rel(t.at),
        scope: t.scope,
        kind: 'breaker',
        subject,
        from: t.from,
        to: t.to,
        reason: t.reason,
      });
    },
  };
}
