// Each endpoint's send slots in this worker (docs/rules.md#adaptive-concurrency): its adaptive concurrency state,
// fed every response, announced to observers when it moves and saved so the API shows it and a restart resumes it.
import type { Clock } from '../clock.ts';
import type { SendResult } from '../http/sender.ts';
import type { Logger } from '../logger.ts';
import {
  type ConcurrencyState,
  effectiveConcurrency,
  initialConcurrency,
  nextConcurrency,
} from '../pacing/adaptive-concurrency.ts';
import type { ClaimedDelivery, DeliveryQueueStore } from '../store/store.ts';
import type { DispatchObserver } from './observers.ts';

export interface EndpointThrottlesOptions {
  store: { queue: Pick<DeliveryQueueStore, 'setEffectiveConcurrency'> };
  clock: Clock;
  logger: Logger;
  /** Read at each change, so observers added later hear it too. */
  observers: readonly DispatchObserver[];
  /** Off: every endpoint gets its max_concurrency and nothing is learned. */
  adaptive: boolean;
}

/** What a change resizes: the endpoint's lane of queued and sending deliveries. */
export interface Slots {
  cap: number;
}

/** One endpoint's adaptive concurrency (kept while its lane comes and goes) and its sends numbered. */
interface Throttle {
  state: ConcurrencyState;
  seq: number;
}

export class EndpointThrottles {
  readonly #o: EndpointThrottlesOptions;
  readonly #throttles = new Map<string, Throttle>();
  /** Learned values waiting to be written (one write at a time per process; the latest value wins). */
  readonly #learned = new Map<string, number | null>();
  /** The background writer while it runs. */
  #writing: Promise<void> | null = null;

  constructor(options: EndpointThrottlesOptions) {
    this.#o = options;
  }

  #throttleOf(c: ClaimedDelivery): Throttle {
    let t = this.#throttles.get(c.endpoint.id);
    if (!t)
      this.#throttles.set(
        c.endpoint.id,
        (t = { state: initialConcurrency(c.endpoint.maxConcurrency, c.endpoint.effectiveConcurrency ?? null), seq: 0 }),
      );
    return t;
  }

  /** The endpoint's send slots in this process: its learned concurrency, or its cap when adapting is off. */
  capOf(c: ClaimedDelivery): number {
    if (!this.#o.adaptive) return c.endpoint.maxConcurrency;
    return effectiveConcurrency(this.#throttleOf(c).state, c.endpoint.maxConcurrency);
  }

  /** Numbers a send as it starts: a cut answers every send already out (see nextConcurrency). */
  nextSeq(c: ClaimedDelivery): number {
    return this.#throttleOf(c).seq++;
  }

  /** The endpoint was deleted: a send of it still finishing starts from its cap again. */
  forget(endpointId: string): void {
    this.#throttles.delete(endpointId);
  }

  /**
   * Feeds one response to the endpoint's adaptive concurrency. A change resizes `slots`, is announced and saved;
   * true when the window grew, so more of the endpoint's queue may start now.
   */
  adapt(
    slots: Slots,
    c: ClaimedDelivery,
    seq: number,
    windowFull: boolean,
    result: SendResult,
    durationMs: number,
  ): boolean {
    if (!this.#o.adaptive) return false;
    const t = this.#throttleOf(c);
    const max = c.endpoint.maxConcurrency;
    const before = effectiveConcurrency(t.state, max);
    t.state = nextConcurrency(
      t.state,
      { seq, status: result.status, success: result.outcome === 'success', durationMs, windowFull },
      max,
      t.seq,
    );
    const after = effectiveConcurrency(t.state, max);
    if (after === before) return false;
    slots.cap = after;
    const endpointId = c.endpoint.id;
    for (const ob of this.#o.observers)
      ob.concurrency?.({ endpointId, tenantId: c.endpoint.tenantId, effective: after, max, at: this.#o.clock.now() });
    this.#save(endpointId, after === max ? null : after);
    return after > before;
  }

  /** Resolves once every learned value so far is written (or its write failed and was logged). */
  async saved(): Promise<void> {
    await this.#writing;
  }

  /**
   * Writes learned values in the background: the API shows them and a restarted worker starts from them. Losing one
   * only means starting from an older value, which adapts again within a few responses.
   */
  #save(endpointId: string, value: number | null): void {
    this.#learned.set(endpointId, value);
    if (this.#writing) return;
    this.#writing = (async () => {
      try {
        while (this.#learned.size > 0) {
          const [id, v] = this.#learned.entries().next().value as [string, number | null];
          this.#learned.delete(id);
          await this.#o.store.queue.setEffectiveConcurrency(id, v).catch((err) =>
            this.#o.logger.log('warn', "saving an endpoint's learned concurrency failed", {
              endpoint_id: id,
              error: (err as Error).message,
            }),
          );
        }
      } finally {
        this.#writing = null;
      }
    })();
  }
}
