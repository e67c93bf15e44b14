// A claim that can take nothing is not repeated until something could have changed (docs/performance.md#dry-claims):
// a backlog on one endpoint whose lane is saturated makes every claim walk that endpoint's due rows and take none, so
// the dispatcher waits for the lane to run low, for new work or for its re-check instead of claiming on every wake.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { VirtualClock } from '../src/clock.ts';
import type { DispatcherOptions } from '../src/dispatch/dispatcher.ts';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import type { ClaimOptions, DeliveryQueueStore } from '../src/store/queue/queue-store.ts';
import type { ClaimedDelivery, Store } from '../src/store/store.ts';
import { until } from '../testing/deadline.ts';
import { tempStore, testEngine } from '../testing/harness.ts';
import { type Respond, startReceiver } from '../testing/receiver.ts';
import { pgTestDb } from './fixtures/pg-test-db.ts';

const EVENTS = 1000;
const BATCH = 50;
const HOUR = 3_600_000;
/** Waits for what a dispatcher does at once when told; a dry dispatcher that misses the signal never does it. */
const PROMPTLY_MS = 10_000;

/** The real store, with `onClaim` seeing each claim's options and rows before the dispatcher does. */
function countingStore(
  store: Store,
  onClaim: (o: ClaimOptions, got: ClaimedDelivery[]) => Promise<void>,
  overrides: { queue?: Partial<DeliveryQueueStore>; root?: Partial<Record<keyof Store, unknown>> } = {},
): Store {
  const queue: DeliveryQueueStore = {
    ...store.queue,
    async claimDue(o: ClaimOptions): Promise<ClaimedDelivery[]> {
      const got = await store.queue.claimDue(o);
      await onClaim(o, got);
      return got;
    },
    ...overrides.queue,
  };
  const root = overrides.root ?? {};
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'queue') return queue;
      if (prop in root) return root[prop as keyof Store];
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  }) as Store;
}

test('a backlog on one saturated endpoint: empty claims are not repeated on every lane wake', async () => {
  const temp = await tempStore();
  const claims = { full: 0, partial: 0, empty: 0 };
  const store = countingStore(temp.store, async (o, got) => {
    if (got.length === 0) claims.empty++;
    else if (got.length >= o.limit) claims.full++;
    else claims.partial++;
  });
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const t = await testEngine({
    store,
    clock: new VirtualClock(Date.UTC(2026, 0, 5, 12)),
    dispatcher: { batchSize: BATCH, maxInFlight: 4 * BATCH, logAttempts: false },
  });
  try {
    await t.engine.endpoints.create(t.tenantId, {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      max_concurrency: 10,
    });
    await t.engine.events.acceptMany(
      t.tenantId,
      Array.from({ length: EVENTS }, (_, i) => ({ type: 'a.b', data: { i } })),
    );
    t.engine.start();
    await until(
      () => t.store.reporting.countByStatus(),
      (c) => c.succeeded === EVENTS,
      { what: `all ${EVENTS} deliveries succeeded`, timeoutMs: 60_000 },
    );
    assert.equal(received, EVENTS, 'each delivery sent once');
    // Every full claim leaves the one lane saturated. A dispatcher that claims again at once, and on each wake while
    // the lane is still saturated, makes about two empty claims per full one (and one per completion in the tail). The
    // clock stands still, so no re-check time comes: every claim here was asked for by a lane running low or new work,
    // and the count does not depend on how fast the machine is.
    assert.ok(claims.full >= EVENTS / BATCH / 2, `claims: ${JSON.stringify(claims)}`);
    // Here at most the one at the tail, when the last rows are all leased (one more for slack, none per full claim).
    assert.ok(claims.empty <= 2, `too many empty claims: ${JSON.stringify(claims)}`);
    console.log(`# claims ${JSON.stringify(claims)}`);
  } finally {
    server.closeAllConnections();
    server.close();
    await t.close();
    await temp.cleanup();
  }
});

/**
 * A started engine on a clock that stands still unless the test moves it: a dry dispatcher's re-check time never
 * comes (its sleeps are real time, its `until` virtual), so whatever it sends after going dry, something told it to.
 * `claims` counts the claims that took nothing and the loop's questions for the next due time; `afterClaim` runs after each claim, before the loop sees it.
 */
async function stillEngine(
  respond: Respond,
  options: {
    dispatcher?: Partial<
      Pick<DispatcherOptions, 'batchSize' | 'leaseFactor' | 'pollMs' | 'sweepMs' | 'adaptiveConcurrency'>
    >;
    maxConcurrency?: number;
    store?: Partial<Record<keyof Store, unknown>>;
    /** The store to run on (default: a temp SQLite file). */
    open?: () => Promise<{ store: Store; cleanup(): Promise<void> }>;
  } = {},
) {
  const receiver = await startReceiver(respond);
  const temp = await (options.open ?? tempStore)();
  const claims = { empty: 0, nextDue: 0 };
  const hooks: { afterClaim: ((got: ClaimedDelivery[]) => Promise<void>) | null } = { afterClaim: null };
  const store = countingStore(
    temp.store,
    async (_o, got) => {
      if (got.length === 0) claims.empty++;
      await hooks.afterClaim?.(got);
    },
    {
      queue: {
        // Asked when a claim took fewer than it wanted and no lane was skipped: the loop goes dry right after.
        nextDueAt: async () => {
          const at = await temp.store.queue.nextDueAt();
          claims.nextDue++;
          return at;
        },
      },
      root: options.store,
    },
  );
  const attempts: string[] = [];
  const t = await testEngine({
    store,
    clock: new VirtualClock(Date.UTC(2026, 0, 5, 12)),
    dispatcher: { pollMs: HOUR, ...options.dispatcher },
    observers: [{ attempt: (e) => void attempts.push(e.next.status) }],
  });
  await t.engine.endpoints.create(t.tenantId, { url: receiver.url, max_concurrency: options.maxConcurrency ?? 10 });
  return {
    ...t,
    receiver,
    claims,
    hooks,
    attempts,
    /** Resolves once the loop has claimed and found nothing: it is dry now. */
    dry: (what: string) =>
      until(
        () => claims.empty,
        (n) => n > 0,
        { what: `an empty claim (${what})` },
      ),
    /** Resolves once the receiver has had `n` requests (answered or not); fails naming `what` if the dispatcher does not send them. */
    sent: (n: number, what: string) =>
      until(
        () => receiver.received.length,
        (got) => got >= n,
        { what, timeoutMs: PROMPTLY_MS },
      ),
    async close() {
      await t.close();
      await receiver.close();
      await temp.cleanup();
    },
  };
}

test('new work wakes a dry dispatcher at once: wake() is never ignored while dry', async () => {
  const t = await stillEngine(() => 200);
  try {
    t.engine.start();
    await t.dry('nothing to send yet');
    await t.engine.events.accept(t.tenantId, { type: 'a.b', data: { i: 1 } });
    await t.sent(1, 'the event accepted while the dispatcher was dry to be sent');
  } finally {
    await t.close();
  }
});

test('a wake during a claim that found nothing is not lost', async () => {
  const t = await stillEngine(() => 200);
  try {
    let accepted = false;
    // The event commits (and wakes the dispatcher) after the claim read the queue and before the loop sees the
    // claim's empty answer: that wake is the only sign of it.
    t.hooks.afterClaim = async (got) => {
      if (got.length > 0 || accepted) return;
      accepted = true;
      await t.engine.events.accept(t.tenantId, { type: 'a.b', data: { i: 1 } });
    };
    t.engine.start();
    await t.sent(1, 'the event accepted during an empty claim to be sent');
  } finally {
    await t.close();
  }
});

test('a dry dispatcher claims again when its re-check time comes: a retry is sent when due', async () => {
  // A short poll: the re-check sleeps are short in real time; the clock decides whether the re-check time came.
  const t = await stillEngine((n) => (n === 1 ? 500 : 200), { dispatcher: { pollMs: 50 } });
  try {
    t.engine.start();
    await t.engine.events.accept(t.tenantId, { type: 'a.b', data: { i: 1 } });
    await until(
      () => t.attempts.length,
      (n) => n === 1,
      { what: 'the first attempt recorded' },
    );
    assert.deepEqual(t.attempts, ['pending'], 'the first attempt failed and is retried');
    t.clock.advance(HOUR); // past the retry's time; nothing wakes the dispatcher
    await t.sent(2, 'the retry sent at the re-check after it came due');
    assert.equal(t.receiver.received.length, 2);
  } finally {
    await t.close();
  }
});

test('a saturated lane running low ends the dry period, also when its last delivery ends the lane', async () => {
  let answerFirst!: () => void;
  const first = new Promise<number>((r) => (answerFirst = () => r(200)));
  // One send at a time, no lease ahead, one row per claim: the first claim is full and leaves the one lane saturated,
  // so the loop goes dry on it (no claim could take anything more) until the lane runs low.
  const t = await stillEngine((n) => (n === 1 ? first : 200), {
    dispatcher: { batchSize: 1, leaseFactor: 1, adaptiveConcurrency: false },
    maxConcurrency: 1,
  });
  try {
    await t.engine.events.acceptMany(
      t.tenantId,
      [1, 2, 3].map((i) => ({ type: 'a.b', data: { i } })),
    );
    t.engine.start();
    await t.sent(1, 'the first delivery sent');
    assert.equal(t.receiver.received.length, 1, 'nothing more sent while the one slot is busy');
    answerFirst();
    await t.sent(3, 'the rest sent as the lane frees its slot');
    // Each full claim left the lane saturated: the loop waited for it instead of claiming past it at once. The empty
    // claim after the last delivery may have come already; one after each full claim would make at least two by now.
    assert.ok(t.claims.empty <= 1, `no empty claim after each full one: ${JSON.stringify(t.claims)}`);
  } finally {
    await t.close();
  }
});

test('an empty claim that skipped a saturated lane is dry until that lane runs low', async () => {
  let answerFirst!: () => void;
  const first = new Promise<number>((r) => (answerFirst = () => r(200)));
  // One send at a time: the first claim leases all three due rows into the one lane, which is then saturated.
  const t = await stillEngine((n) => (n === 1 ? first : 200), {
    dispatcher: { leaseFactor: 1, adaptiveConcurrency: false },
    maxConcurrency: 1,
  });
  try {
    await t.engine.events.acceptMany(
      t.tenantId,
      [1, 2, 3].map((i) => ({ type: 'a.b', data: { i } })),
    );
    t.engine.start();
    await t.sent(1, 'the first delivery sent');
    // New work for the saturated lane: the claim it wakes skips the lane's rows, takes nothing, and the loop waits for
    // the lane (not for a re-check that never comes here).
    await t.engine.events.accept(t.tenantId, { type: 'a.b', data: { i: 4 } });
    await t.dry('the new row skipped behind the saturated lane');
    answerFirst();
    await t.sent(4, 'all four sent: the lane running low ended the dry period');
  } finally {
    await t.close();
  }
});

test('a full claim that leaves a lane room claims again at once', async () => {
  const t = await stillEngine(() => 200, {
    dispatcher: { batchSize: 2, leaseFactor: 1, adaptiveConcurrency: false },
    maxConcurrency: 10,
  });
  try {
    await t.engine.events.acceptMany(
      t.tenantId,
      [1, 2, 3, 4, 5].map((i) => ({ type: 'a.b', data: { i } })),
    );
    t.engine.start();
    await t.sent(5, 'all five sent: each full claim left the lane room (2 of 10), so the loop claims on');
  } finally {
    await t.close();
  }
});

test("the sweep handing back a dead peer's lapsed leases is new work for a dry dispatcher", async () => {
  let answerOwn!: () => void;
  const own = new Promise<number>((r) => (answerOwn = () => r(200)));
  const t = await stillEngine((n) => (n === 1 ? own : 200), {
    dispatcher: { sweepMs: 1000 },
    // As on PostgreSQL, where other workers share the store: no hand-back of every lease at start.
    store: { capsAcrossWorkers: true },
  });
  try {
    await t.engine.events.accept(t.tenantId, { type: 'a.b', data: { i: 'peer' } });
    const now = t.clock.now();
    const peer = await t.store.queue.claimDue({
      now,
      limit: 10,
      leaseUntil: now + 500,
      workerId: 'wrk_dead_peer',
      saturatedEndpoints: [],
      leaseFactor: 1,
    });
    assert.equal(peer.length, 1, 'the peer holds the first delivery');
    await t.engine.events.accept(t.tenantId, { type: 'a.b', data: { i: 'own' } });
    t.engine.start();
    await t.sent(1, 'its own delivery sent');
    await until(
      () => t.claims.nextDue,
      (n) => n > 0,
      { what: 'the loop asking for the next due time (going dry)' },
    );
    t.clock.advance(2000); // the peer's lease lapsed and a sweep is due
    answerOwn(); // the lane runs low: the loop wakes, sweeps, and must claim what the sweep handed back
    await t.sent(2, "the dead peer's delivery sent once the sweep handed it back");
    assert.equal(JSON.parse(t.receiver.received[1]!.body.toString()).data.i, 'peer');
  } finally {
    await t.close();
  }
});

const pgDb = await pgTestDb();
after(() => pgDb.cleanup());

test('PostgreSQL: a claim that took its lanes’ share of the due rows claims again at once', {
  skip: pgDb.skip ?? false,
}, async () => {
  let answerFirst!: () => void;
  const first = new Promise<number>((r) => (answerFirst = () => r(200)));
  const schema = `dry_${process.pid}_${Date.now().toString(36)}`;
  // A PostgreSQL claim leases at most an endpoint's cap (× lease factor) of its rows: this one takes one of three and
  // leaves two due. The loop must claim again at once (that claim skips the now saturated lane, takes nothing and goes
  // dry on it), not wait for a re-check time, which on the still clock never comes. (What follows once the lane runs
  // low is not for this test: the first delivery's row stays leased in the database until its record commits, so the
  // claim the lane wakes finds the endpoint still at its cap and waits for the 25 ms re-check.)
  const t = await stillEngine((n) => (n === 1 ? first : 200), {
    dispatcher: { leaseFactor: 1, adaptiveConcurrency: false },
    maxConcurrency: 1,
    // No due notifications: a LISTEN connection's wake (one arrives as it connects) would be new work and hide a loop
    // that waits for the re-check after a partial claim.
    store: { onDue: undefined },
    open: async () => {
      const store = await openPostgresStore(pgDb.url!, { schema, poolMax: 4 });
      return {
        store,
        async cleanup() {
          await store.pg.pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
          await store.close();
        },
      };
    },
  });
  try {
    await t.engine.events.acceptMany(
      t.tenantId,
      [1, 2, 3].map((i) => ({ type: 'a.b', data: { i } })),
    );
    t.engine.start();
    await t.sent(1, 'the first delivery sent');
    await t.dry('the claim right after the partial one, skipping the saturated lane');
    assert.equal(t.receiver.received.length, 1, 'the one slot is busy');
    answerFirst();
  } finally {
    await t.close();
  }
});
