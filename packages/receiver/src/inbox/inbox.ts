// The durable inbox: events stored before the 2xx, a leasing worker that runs their handlers, retries, a dead letter.
import { StorageUnavailable } from '../errors.ts';
import { defaultLogger, type LogLine } from '../log-line.ts';
import type { EventContract, WebhookEvent } from '../webhook-event.ts';
import type { AcceptResult, InboxEntry, InboxEvent, InboxStore } from './inbox-store.ts';
import { nextRetryStep, type RetryPolicy, resolveRetryPolicy } from './retry-policy.ts';

export interface InboxOptions {
  store: InboxStore;
  /** Contracts by event type: the receiver validates with `schema`, the worker runs `handle`. */
  events: Readonly<Record<string, EventContract>>;
  /** Clock in milliseconds; injectable so backoff, leases and retention are tested without waiting. Default `Date.now`. */
  now?: () => number;
  /** Backoff for a handler that throws. Default 1 s doubling to 10 min, 10 runs, then the dead letter. */
  retry?: Partial<RetryPolicy>;
  /** How long a claim is held; must exceed your slowest `handle()`. A dead worker's claims are taken over after it. Default 5 min. */
  leaseMs?: number;
  /** Handlers run at once by this process's worker. Default 8. */
  concurrency?: number;
  /** How often an idle worker looks for due events (new events in this process wake it at once). Default 1000 ms. */
  pollIntervalMs?: number;
  /** Done events are deleted this long after they finished. Default 30 days. */
  retentionMs?: number;
  /** How often the worker prunes. Default 1 hour. */
  pruneIntervalMs?: number;
  /** One JSON object per outcome; default writes a JSON line to stderr. */
  logger?: (line: LogLine) => void;
}

export interface Inbox {
  readonly events: Readonly<Record<string, EventContract>>;
  /** Stores an event (the receiver calls this before its 2xx) and wakes this process's worker. */
  accept(event: InboxEvent): Promise<AcceptResult>;
  /** Starts the worker loop in this process; several processes may run one on a shared PostgreSQL/Redis inbox. */
  start(): void;
  /** Stops claiming and resolves once the handlers running now have finished. */
  stop(): Promise<void>;
  /** One pass without the loop (tests, cron): prune if due, claim up to `concurrency`, run them; resolves with how many ran. */
  runOnce(): Promise<number>;
  /** Events that kept failing, oldest first, each with its last error. */
  deadLetters(limit?: number): Promise<InboxEntry[]>;
  /** Re-runs a dead letter now with a fresh set of tries; false when the id is not in the dead letter. */
  retry(eventId: string): Promise<boolean>;
  get(eventId: string): Promise<InboxEntry | undefined>;
  /** Deletes done events older than `retentionMs` now; the worker also does this every `pruneIntervalMs`. */
  prune(): Promise<number>;
}

const PRUNE_BATCH = 1000;

/**
 * Builds an inbox over a store. Hand it to `createWebhookHandler({ secrets, inbox })` and call
 * `inbox.start()`; a handler runs from the stored copy at least once, and more than once only if
 * its process died (or its lease ran out) before the run was marked done.
 *
 * @example
 * const inbox = createInbox({ store: sqliteInbox(new Database('webhooks.db')), events: { 'order.shipped': { handle: (e) => ship(e.payload) } } });
 * const receive = createWebhookHandler({ secrets, inbox });
 * inbox.start();
 * process.on('SIGTERM', async () => { await inbox.stop(); process.exit(0); });
 */
export function createInbox(options: InboxOptions): Inbox {
  const { store, events } = options;
  const now = options.now ?? Date.now;
  const policy = resolveRetryPolicy(options.retry);
  const leaseMs = positive('leaseMs', options.leaseMs ?? 5 * 60_000);
  const concurrency = positive('concurrency', options.concurrency ?? 8);
  const pollIntervalMs = positive('pollIntervalMs', options.pollIntervalMs ?? 1000);
  const retentionMs = positive('retentionMs', options.retentionMs ?? 30 * 24 * 3600_000);
  const pruneIntervalMs = positive('pruneIntervalMs', options.pruneIntervalMs ?? 3600_000);
  const log = options.logger ?? defaultLogger;

  const inFlight = new Set<Promise<void>>();
  let loop: Promise<void> | undefined;
  let running = false;
  let lastPrune = -Infinity;
  // One sleeper at a time (the loop); a wake with nobody asleep is remembered, never lost.
  let wakeSleeper: (() => void) | undefined;
  let woken = false;
  const wake = (): void => {
    if (wakeSleeper === undefined) woken = true;
    else wakeSleeper();
  };
  const sleep = (ms: number): Promise<void> => {
    if (woken) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakeSleeper = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      wakeSleeper = done;
    });
  };

  const base = (entry: InboxEntry) => ({
    event_id: entry.eventId,
    delivery_id: entry.deliveryId,
    signature: 'valid' as const,
    type: entry.type,
    attempt: entry.attempt,
  });
  const storageTrouble = (msg: string, error: unknown, entry?: InboxEntry) =>
    log({
      level: 'error',
      msg,
      event_id: entry?.eventId,
      delivery_id: entry?.deliveryId,
      signature: entry === undefined ? 'unchecked' : 'valid',
      code: 'storage_unavailable',
      reason: describe(error),
    });

  async function fail(entry: InboxEntry, reason: string, final: boolean): Promise<void> {
    const at = now();
    const step = final ? ({ kind: 'dead', reason } as const) : nextRetryStep(policy, entry.failures + 1, at);
    try {
      if (step.kind === 'retry') {
        await store.reschedule(entry.eventId, entry.attempt, reason, step.at, at);
        log({
          level: 'warn',
          msg: 'inbox handler failed, retry scheduled',
          ...base(entry),
          code: 'handler_failed',
          reason,
          retry_in_ms: step.delayMs,
        });
      } else {
        await store.bury(entry.eventId, entry.attempt, reason, at);
        log({
          level: 'error',
          msg: 'inbox handler moved to the dead letter',
          ...base(entry),
          code: 'handler_failed',
          reason,
          failures: entry.failures + 1,
        });
      }
    } catch (error) {
      // The lease runs out and the event is claimed again: the failure repeats, nothing is lost.
      storageTrouble('could not record inbox handler failure', error, entry);
    }
  }

  async function runEntry(entry: InboxEntry): Promise<void> {
    const contract = Object.hasOwn(events, entry.type) ? events[entry.type] : undefined;
    if (contract === undefined) return fail(entry, `no handler for event type ${entry.type}`, true);
    let payload: unknown;
    try {
      payload = JSON.parse(
        Buffer.from(entry.body.buffer, entry.body.byteOffset, entry.body.byteLength).toString('utf8'),
      );
    } catch {
      return fail(entry, 'stored body is not JSON', true);
    }
    const event: WebhookEvent = {
      id: entry.eventId,
      deliveryId: entry.deliveryId,
      type: entry.type,
      payload,
      rawBody: entry.body,
      attempt: entry.attempt,
      scheme: entry.scheme,
      headers: entry.headers,
      receivedAt: entry.receivedAt,
    };
    try {
      await contract.handle(event);
    } catch (error) {
      return fail(entry, describe(error), false);
    }
    try {
      if (!(await store.complete(entry.eventId, entry.attempt, now()))) {
        log({
          level: 'warn',
          msg: 'inbox lease lost before completion; the event ran again elsewhere',
          ...base(entry),
        });
      }
    } catch (error) {
      storageTrouble('could not record inbox completion', error, entry);
    }
  }

  const track = (work: Promise<void>): Promise<void> => {
    const job = work.finally(() => {
      inFlight.delete(job);
      wake(); // a free slot: claim more
    });
    inFlight.add(job);
    return job;
  };

  async function prune(): Promise<number> {
    const before = now() - retentionMs;
    let total = 0;
    // Bounded batches keep each statement short; the loop ends once a batch comes back short.
    for (;;) {
      const removed = await store.prune(before, PRUNE_BATCH);
      total += removed;
      if (removed < PRUNE_BATCH) return total;
    }
  }

  async function pruneIfDue(): Promise<void> {
    if (now() - lastPrune < pruneIntervalMs) return;
    lastPrune = now();
    try {
      const removed = await prune();
      if (removed > 0)
        log({
          level: 'info',
          msg: 'inbox pruned done events',
          event_id: undefined,
          delivery_id: undefined,
          signature: 'unchecked',
          removed,
        });
    } catch (error) {
      storageTrouble('could not prune the inbox', error);
    }
  }

  async function runLoop(): Promise<void> {
    while (running) {
      await pruneIfDue();
      const free = concurrency - inFlight.size;
      if (free <= 0) {
        await sleep(pollIntervalMs);
        continue;
      }
      let claimed: InboxEntry[];
      try {
        claimed = await store.claim(now(), leaseMs, free);
      } catch (error) {
        storageTrouble('could not claim inbox events', error);
        await sleep(pollIntervalMs);
        continue;
      }
      for (const entry of claimed) void track(runEntry(entry));
      if (claimed.length < free) await sleep(pollIntervalMs);
    }
  }

  return {
    events,
    async accept(event) {
      const result = await store.accept(event);
      if (result.kind === 'accepted') wake();
      return result;
    },
    start() {
      if (running) return;
      running = true;
      loop = runLoop();
    },
    async stop() {
      running = false;
      wake();
      await loop;
      loop = undefined;
      woken = false;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async runOnce() {
      await pruneIfDue();
      const claimed = await store.claim(now(), leaseMs, concurrency);
      await Promise.all(claimed.map((entry) => track(runEntry(entry))));
      return claimed.length;
    },
    deadLetters: (limit = 100) => store.deadLetters(limit),
    async retry(eventId) {
      const revived = await store.revive(eventId, now());
      if (revived) wake();
      return revived;
    },
    get: (eventId) => store.get(eventId),
    prune,
  };
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new RangeError(`inbox ${name} must be a positive number, got ${String(value)}`);
  return value;
}

function describe(error: unknown): string {
  if (error instanceof StorageUnavailable && error.cause !== undefined)
    return `${error.message}: ${describe(error.cause)}`;
  return error instanceof Error ? error.message : String(error);
}
