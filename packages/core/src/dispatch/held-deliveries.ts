// Puts leased deliveries the breaker holds back to `held` (docs/rules.md#breaker-hold), many in one group commit.
import type { Clock } from '../clock.ts';
import { GroupCommit } from '../group-commit.ts';
import type { DeliveryQueueStore } from '../store/store.ts';

export interface HeldDeliveriesOptions {
  store: { queue: Pick<DeliveryQueueStore, 'holdDeliveries'> };
  clock: Clock;
}

export class HeldDeliveries {
  readonly #o: HeldDeliveriesOptions;
  readonly #workerId: string;
  readonly #holds: GroupCommit<{ id: string; until: number }, undefined>;

  constructor(options: HeldDeliveriesOptions, workerId: string) {
    this.#o = options;
    this.#workerId = workerId;
    this.#holds = new GroupCommit((holds) => this.#commit(holds), 1000);
  }

  /** Resolves once the delivery is held until `until` (its batch committed). */
  submit(hold: { id: string; until: number }): Promise<undefined> {
    return this.#holds.submit(hold);
  }

  /** One statement per release time: the deliveries held until the same moment go together. */
  async #commit(holds: Array<{ id: string; until: number }>): Promise<undefined[]> {
    const byUntil = new Map<number, string[]>();
    for (const h of holds) byUntil.set(h.until, [...(byUntil.get(h.until) ?? []), h.id]);
    const now = this.#o.clock.now();
    for (const [until, ids] of byUntil) await this.#o.store.queue.holdDeliveries(ids, this.#workerId, until, now);
    return holds.map(() => undefined);
  }
}
