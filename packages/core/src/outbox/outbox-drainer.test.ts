// The outbox drainer against an in-memory outbox: nothing is claimed until a sender is installed, a predecessor's
// leases are handed back once on a one-worker store, a sent row is finished, a failed one is retried with backoff and
// abandoned at its last try, and the loop drains full batches back to back and wakes on demand.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { until, within } from '../../testing/deadline.ts';
import { VirtualClock } from '../clock.ts';
import { memoryLogger } from '../logger.ts';
import type { OutboxRow } from '../store/store.ts';
import { OutboxDrainer, type OutboxHandler, outboxRetryDelay } from './outbox-drainer.ts';

const T0 = Date.UTC(2026, 0, 5, 12);

/** An outbox that records each call, and lets a test wait for the n-th finished row. */
class MemoryOutbox {
  readonly calls: Array<[string, ...unknown[]]> = [];
  readonly rows: OutboxRow[] = [];
  summaries = 0;
  failClaim: Error | null = null;
  #finished = 0;
  #waiters: Array<{ n: number; resolve(): void }> = [];
  constructor(readonly capsAcrossWorkers: boolean) {}

  add(id: string, fields: Partial<OutboxRow> = {}): void {
    this.rows.push({
      id,
      tenantId: 'ten_1',
      kind: 'endpoint.paused',
      subjectId: 'ep_1',
      endpointId: 'ep_1',
      data: {},
      createdAt: T0,
      status: 'pending',
      tries: 0,
      dueAt: T0,
      leaseUntil: null,
      lastError: null,
      ...fields,
    });
  }
  // Notices are the sender's business (the server's), never the drainer's: a call fails the test.
  async addNotice(): Promise<void> {
    throw new Error('the drainer wrote a notice');
  }
  async listNotices(): Promise<never> {
    throw new Error('the drainer listed notices');
  }
  async releaseOutboxLeases(): Promise<number> {
    this.calls.push(['release']);
    return 0;
  }
  async flushFailureSummaries(now: number, windowMs: number): Promise<number> {
    this.calls.push(['flush', now, windowMs]);
    return this.summaries;
  }
  async claimOutbox(now: number, limit: number, leaseUntil: number): Promise<OutboxRow[]> {
    this.calls.push(['claim', now, limit, leaseUntil]);
    if (this.failClaim) {
      const err = this.failClaim;
      this.failClaim = null;
      throw err;
    }
    const due = this.rows.filter((r) => r.status === 'pending' && r.dueAt <= now && (r.leaseUntil ?? 0) <= now);
    const taken = due.slice(0, limit);
    for (const r of taken) r.leaseUntil = leaseUntil;
    return taken.map((r) => ({ ...r }));
  }
  async finishOutbox(id: string, now: number): Promise<boolean> {
    this.calls.push(['finish', id, now]);
    const row = this.rows.find((r) => r.id === id)!;
    row.status = 'sent';
    this.#finished++;
    for (const w of this.#waiters.filter((x) => x.n <= this.#finished)) w.resolve();
    return true;
  }
  async retryOutbox(id: string, outcome: { dueAt: number } | { abandon: true }, error: string, now: number) {
    this.calls.push(['retry', id, outcome, error, now]);
    const row = this.rows.find((r) => r.id === id)!;
    row.tries++;
    row.lastError = error;
    row.leaseUntil = null;
    if ('abandon' in outcome) row.status = 'abandoned';
    else row.dueAt = outcome.dueAt;
  }
  finished(n: number): Promise<void> {
    if (this.#finished >= n) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ n, resolve }));
  }
  named(name: string) {
    return this.calls.filter((c) => c[0] === name);
  }
}

function drainer(store: MemoryOutbox, options: { batch?: number; pollMs?: number; maxTries?: number } = {}) {
  const clock = new VirtualClock(T0);
  const logger = memoryLogger();
  return {
    clock,
    logger,
    drainer: new OutboxDrainer({
      store: { outbox: store, capsAcrossWorkers: store.capsAcrossWorkers },
      clock,
      logger,
      ...options,
    }),
  };
}

test('a failed notification is retried after 10 s, doubled each time, at most hourly', () => {
  assert.deepEqual([0, 1, 2, 3, 4].map(outboxRetryDelay), [10_000, 10_000, 20_000, 40_000, 80_000]);
  assert.equal(outboxRetryDelay(9), 2560_000);
  assert.equal(outboxRetryDelay(10), 60 * 60_000);
  assert.equal(outboxRetryDelay(40), 60 * 60_000);
});

test('until a sender is installed nothing is claimed, flushed or released', async () => {
  const store = new MemoryOutbox(false);
  store.add('ntc_1');
  const { drainer: d } = drainer(store);
  assert.deepEqual(await d.drainOnce(), { claimed: 0, sent: 0, failed: 0, summaries: 0 });
  assert.deepEqual(store.calls, []);
  assert.equal(store.rows[0].status, 'pending');
});

test('one pass: summaries flushed for the 15-minute window, a batch of 20 leased for 5 minutes, each sent row finished', async () => {
  const store = new MemoryOutbox(true);
  store.summaries = 2;
  for (let i = 0; i < 25; i++) store.add(`ntc_${String(i).padStart(2, '0')}`);
  const { drainer: d, clock } = drainer(store);
  const seen: string[] = [];
  d.handle(async (row) => {
    seen.push(row.id);
    clock.advance(10);
  });
  const r = await d.drainOnce();
  assert.deepEqual(r, { claimed: 20, sent: 20, failed: 0, summaries: 2 });
  assert.deepEqual(store.named('flush'), [['flush', T0, 15 * 60_000]]);
  assert.deepEqual(store.named('claim'), [['claim', T0, 20, T0 + 5 * 60_000]]);
  assert.equal(seen.length, 20);
  // Finished at the clock's time after the send, not at the pass's start.
  assert.deepEqual(store.named('finish')[0], ['finish', 'ntc_00', T0 + 10]);
  assert.deepEqual(store.named('finish')[19], ['finish', 'ntc_19', T0 + 200]);
  assert.equal(store.named('release').length, 0, 'leases on a shared store may be a live worker’s: never released');
  // An explicit `now` is the pass's time.
  await d.drainOnce(T0 + 1000);
  assert.deepEqual(store.named('claim')[1], ['claim', T0 + 1000, 20, T0 + 1000 + 5 * 60_000]);
  assert.deepEqual(store.named('flush')[1], ['flush', T0 + 1000, 15 * 60_000]);
});

test('on a one-worker store the first pass hands back every lease, once', async () => {
  const store = new MemoryOutbox(false);
  const { drainer: d } = drainer(store);
  d.handle(async () => {});
  await d.drainOnce();
  await d.drainOnce();
  assert.deepEqual(
    store.calls.map((c) => c[0]),
    ['release', 'flush', 'claim', 'flush', 'claim'],
  );
});

test('a failed send is retried with backoff from the time it failed, then abandoned at its last try', async () => {
  const store = new MemoryOutbox(true);
  store.add('ntc_a');
  const { drainer: d, clock, logger } = drainer(store, { maxTries: 3 });
  d.handle(async () => {
    clock.advance(5);
    throw new Error('smtp down');
  });
  const first = await d.drainOnce();
  assert.deepEqual(first, { claimed: 1, sent: 0, failed: 1, summaries: 0 });
  assert.deepEqual(store.named('retry')[0], ['retry', 'ntc_a', { dueAt: T0 + 5 + 10_000 }, 'smtp down', T0 + 5]);
  assert.deepEqual(logger.lines.at(-1), {
    level: 'warn',
    msg: 'notification not sent; retrying',
    outbox_id: 'ntc_a',
    tenant_id: 'ten_1',
    kind: 'endpoint.paused',
    tries: 1,
    error: 'smtp down',
    due_at: new Date(T0 + 5 + 10_000).toISOString(),
  });
  assert.equal(store.named('finish').length, 0);

  clock.set(T0 + 5 + 10_000);
  await d.drainOnce();
  assert.deepEqual(store.named('retry')[1], [
    'retry',
    'ntc_a',
    { dueAt: T0 + 10_010 + 20_000 },
    'smtp down',
    T0 + 10_010,
  ]);

  clock.set(T0 + 10_010 + 20_000);
  await d.drainOnce();
  assert.deepEqual(store.named('retry')[2], ['retry', 'ntc_a', { abandon: true }, 'smtp down', T0 + 30_015]);
  assert.deepEqual(logger.lines.at(-1), {
    level: 'error',
    msg: 'notification abandoned after its last try',
    outbox_id: 'ntc_a',
    tenant_id: 'ten_1',
    kind: 'endpoint.paused',
    tries: 3,
    error: 'smtp down',
  });
  assert.equal(store.rows[0].status, 'abandoned');
  clock.advance(24 * 3600_000);
  assert.equal((await d.drainOnce()).claimed, 0, 'an abandoned row is never claimed again');
});

test('a thrown non-Error is kept as its text; one failed row does not stop the batch', async () => {
  const store = new MemoryOutbox(true);
  store.add('ntc_a');
  store.add('ntc_b');
  const { drainer: d } = drainer(store);
  d.handle(async (row) => {
    if (row.id === 'ntc_a') throw 'refused';
  });
  assert.deepEqual(await d.drainOnce(), { claimed: 2, sent: 1, failed: 1, summaries: 0 });
  assert.equal(store.named('retry')[0][3], 'refused');
  assert.deepEqual(
    store.named('finish').map((c) => c[1]),
    ['ntc_b'],
  );
});

test('the loop drains full batches back to back, then waits until woken; a failed pass is logged and the loop goes on', async () => {
  const store = new MemoryOutbox(true);
  for (let i = 0; i < 5; i++) store.add(`ntc_${i}`);
  // An hour's poll: anything sent after the first pass was sent because the loop was woken or had a full batch.
  const { drainer: d, logger } = drainer(store, { batch: 2, pollMs: 3600_000 });
  const handler: OutboxHandler = async () => {};
  d.start();
  try {
    // Started before a sender: its first pass claims nothing; installing one wakes it.
    d.handle(handler);
    await within('five rows sent in full batches', 10_000, store.finished(5));
    store.failClaim = new Error('database is locked');
    store.add('ntc_5');
    d.wake();
    await until(() => logger.lines.some((l) => l.level === 'error'), Boolean, {
      what: 'the failed pass logged',
      timeoutMs: 10_000,
      everyMs: 5,
    });
    assert.deepEqual(logger.lines.at(-1), { level: 'error', msg: 'outbox drain failed', error: 'database is locked' });
    d.wake();
    await within('the row sent after the next wake', 10_000, store.finished(6));
  } finally {
    await within('the loop to stop', 10_000, d.stop());
  }
  const sent = store.named('finish').map((c) => c[1]);
  assert.deepEqual(sent, ['ntc_0', 'ntc_1', 'ntc_2', 'ntc_3', 'ntc_4', 'ntc_5'], 'each row sent once, in order');
});
