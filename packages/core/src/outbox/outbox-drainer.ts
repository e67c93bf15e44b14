// Drains the notification outbox in the worker role (docs/rules.md#notifications): claims due rows with a lease, hands
// each to the sender the server installs (notice, operational webhook, e-mail), marks it sent, retries with backoff.
// At least once: a row whose send was cut off by a crash is sent again, under the same id, which receivers dedupe.
import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import { SUMMARY_WINDOW_MS } from '../store/failure-summary.ts';
import type { OutboxRow, Store } from '../store/store.ts';
import { WakeSignal } from '../wake-signal.ts';

/** Sends one notification; resolves once every channel took it, rejects to have the row retried. */
export type OutboxHandler = (row: OutboxRow) => Promise<void>;

export interface OutboxDrainerOptions {
  /** The outbox part; `capsAcrossWorkers` says whether leases on it may be another live process's. */
  store: Pick<Store, 'outbox' | 'capsAcrossWorkers'>;
  clock: Clock;
  logger: Logger;
  /** At most one failure summary per endpoint this often (docs/rules.md#notifications: 15 min). */
  summaryWindowMs?: number;
  /** How long a claimed row is its worker's; must outlast one send on every channel (mail retries included). */
  leaseMs?: number;
  /** Rows per claim. */
  batch?: number;
  /** Real-time wait between drains when nobody wakes the loop. */
  pollMs?: number;
  /** Sends tried before a row is abandoned (logged as an error, kept until retention). */
  maxTries?: number;
}

export interface DrainResult {
  claimed: number;
  sent: number;
  failed: number;
  summaries: number;
}

const RETRY_BASE_MS = 10_000;
const RETRY_CAP_MS = 60 * 60_000;

/** The wait after the `tries`-th failed send: 10 s, doubled each time, at most an hour. */
export function outboxRetryDelay(tries: number): number {
  return Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, tries - 1));
}

export class OutboxDrainer {
  readonly #o: Required<Omit<OutboxDrainerOptions, 'store' | 'clock' | 'logger'>> &
    Pick<OutboxDrainerOptions, 'store' | 'clock' | 'logger'>;
  #handler: OutboxHandler | null = null;
  #recovered = false;
  #running = false;
  #loop: Promise<void> | null = null;
  readonly #wakeSignal = new WakeSignal();

  constructor(o: OutboxDrainerOptions) {
    this.#o = { summaryWindowMs: SUMMARY_WINDOW_MS, leaseMs: 5 * 60_000, batch: 20, pollMs: 1000, maxTries: 16, ...o };
  }

  /** Installs the sender. Until one is installed nothing is claimed: rows wait, pending, for a process that sends. */
  handle(handler: OutboxHandler): void {
    this.#handler = handler;
    this.wake();
  }

  /** A transition was committed: drain now instead of at the next poll. */
  wake(): void {
    this.#wakeSignal.wake();
  }

  /**
   * One pass at `now`: due failure summaries become rows, then one batch of due rows is sent. Virtual-clock tests
   * call it directly; the worker role's loop repeats it.
   */
  async drainOnce(now = this.#o.clock.now()): Promise<DrainResult> {
    const handler = this.#handler;
    const out: DrainResult = { claimed: 0, sent: 0, failed: 0, summaries: 0 };
    if (!handler) return out;
    const o = this.#o;
    if (!this.#recovered) {
      // One worker process per SQLite file: every lease on it is a killed predecessor's, sent again at once.
      if (!o.store.capsAcrossWorkers) await o.store.outbox.releaseOutboxLeases();
      this.#recovered = true;
    }
    out.summaries = await o.store.outbox.flushFailureSummaries(now, o.summaryWindowMs);
    const rows = await o.store.outbox.claimOutbox(now, o.batch, now + o.leaseMs);
    out.claimed = rows.length;
    for (const row of rows) {
      try {
        await handler(row);
        await o.store.outbox.finishOutbox(row.id, o.clock.now());
        out.sent++;
      } catch (err) {
        out.failed++;
        const tries = row.tries + 1;
        const error = (err as Error)?.message ?? String(err);
        const at = o.clock.now();
        if (tries >= o.maxTries) {
          o.logger.log('error', 'notification abandoned after its last try', {
            outbox_id: row.id,
            tenant_id: row.tenantId,
            kind: row.kind,
            tries,
            error,
          });
          await o.store.outbox.retryOutbox(row.id, { abandon: true }, error, at);
        } else {
          const dueAt = at + outboxRetryDelay(tries);
          o.logger.log('warn', 'notification not sent; retrying', {
            outbox_id: row.id,
            tenant_id: row.tenantId,
            kind: row.kind,
            tries,
            error,
            due_at: new Date(dueAt).toISOString(),
          });
          await o.store.outbox.retryOutbox(row.id, { dueAt }, error, at);
        }
      }
    }
    return out;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Stops the loop after the pass in flight (a row cut off mid-send stays leased and is sent again later). */
  async stop(): Promise<void> {
    this.#running = false;
    this.wake();
    await this.#loop;
    this.#loop = null;
  }

  async #run(): Promise<void> {
    while (this.#running) {
      try {
        const r = await this.drainOnce();
        if (r.claimed >= this.#o.batch) continue;
      } catch (err) {
        this.#o.logger.log('error', 'outbox drain failed', { error: (err as Error).message });
      }
      await this.#sleep(this.#o.pollMs);
    }
  }

  #sleep(ms: number): Promise<void> {
    return this.#wakeSignal.sleep(ms, !this.#running);
  }
}
