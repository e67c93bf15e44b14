// Records finished attempts through one group commit: retries a store that is briefly away, and halves a batch the
// store refuses while up until its bad row is alone, so that row fails only its own caller (docs/rules.md#accepted-on-disk).
import type { Clock } from '../clock.ts';
import { GroupCommit } from '../group-commit.ts';
import type { Logger } from '../logger.ts';
import type { AttemptRecord, DeliveryQueueStore, HealthTransition, Store } from '../store/store.ts';

/** Tries for one group commit of attempts before its callers see the error. */
export const COMMIT_TRIES = 6;

export interface AttemptRecorderOptions {
  store: { queue: Pick<DeliveryQueueStore, 'recordAttempts'> } & Pick<Store, 'ping'>;
  clock: Clock;
  logger: Logger;
  /** Waits between tries (default: a real timer; the store's restart takes real time, even under a virtual clock). */
  backoff?: (ms: number) => Promise<void>;
}

const realBackoff = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class AttemptRecorder {
  readonly #o: AttemptRecorderOptions;
  readonly #backoff: (ms: number) => Promise<void>;
  readonly #records: GroupCommit<AttemptRecord, HealthTransition[]>;

  constructor(options: AttemptRecorderOptions) {
    this.#o = options;
    this.#backoff = options.backoff ?? realBackoff;
    // Records linger up to 4 ms for company, one commit at a time: what arrives meanwhile makes the next batch larger
    // (fewer pages rewritten per attempt). A success's send slot is already free, so only its lease waits.
    this.#records = new GroupCommit((records) => this.commit(records), 1000, 4, 128, 1);
  }

  /** Resolves with the health transitions of the record's endpoint once its batch is committed. */
  submit(record: AttemptRecord): Promise<HealthTransition[]> {
    return this.#records.submit(record);
  }

  /** One batch: per record, the health transitions of its endpoint, or the Error only that record's caller sees. */
  async commit(records: AttemptRecord[]): Promise<Array<HealthTransition[] | Error>> {
    const out: Array<HealthTransition[] | Error> = records.map(() => []);
    await this.#commitPart(records, 0, out);
    return out;
  }

  /**
   * Records `records` (slots `offset…` of `out`). A batch the store refuses while it is up (it answers a ping) holds a
   * row it cannot take: the batch is split in halves until that row is alone, so it fails only its own caller, never
   * the rest of the batch. A store that is down gets the retries of #recordWithRetry instead.
   */
  async #commitPart(records: AttemptRecord[], offset: number, out: Array<HealthTransition[] | Error>): Promise<void> {
    let transitions: HealthTransition[];
    try {
      transitions = await this.#recordWithRetry(records, records.length > 1);
    } catch (err) {
      if (records.length === 1) {
        const cause = err instanceof RefusedBatch ? err.cause : err;
        this.#o.logger.log(
          'error',
          'an attempt record was refused; its delivery is sent again when its lease expires',
          { delivery_id: records[0].attempt.deliveryId, error: (cause as Error).message },
        );
        out[offset] = cause instanceof Error ? cause : new Error(String(cause));
        return;
      }
      if (!(err instanceof RefusedBatch)) {
        for (let i = 0; i < records.length; i++) out[offset + i] = err instanceof Error ? err : new Error(String(err));
        return;
      }
      const half = Math.ceil(records.length / 2);
      await this.#commitPart(records.slice(0, half), offset, out);
      await this.#commitPart(records.slice(half), offset + half, out);
      return;
    }
    // Transitions are per batch; hand each to the record of its endpoint once.
    for (const t of transitions) {
      const i = records.findIndex((r) => r.attempt.endpointId === t.endpointId);
      if (i >= 0) (out[offset + i] as HealthTransition[]).push(t);
    }
  }

  /**
   * The attempts happened; losing their record would re-send them after the lease. A store that is briefly away
   * (database restart, connections cut) gets a few tries with backoff (~6 s in all) before the callers see the error.
   */
  async #recordWithRetry(records: AttemptRecord[], splittable: boolean): Promise<HealthTransition[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        // Safe to repeat: the store's record is idempotent (a commit whose outcome was lost may have landed).
        return await this.#o.store.queue.recordAttempts(records, this.#o.clock.now());
      } catch (err) {
        // Up, yet refusing: a row it cannot take (a single record gets one more try, in case that was a blip).
        if ((splittable || attempt >= 2) && (await this.#o.store.ping().catch(() => false)))
          throw new RefusedBatch(err);
        if (attempt >= COMMIT_TRIES) throw err;
        this.#o.logger.log('warn', 'recording attempts failed, retrying', {
          error: (err as Error).message,
          attempt,
          records: records.length,
        });
        await this.#backoff(100 * 2 ** attempt);
      }
    }
  }
}

/** The store is up but refused a batch of records: one of its rows cannot be written. */
export class RefusedBatch extends Error {
  constructor(cause: unknown) {
    super(`the store refused the batch: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}
