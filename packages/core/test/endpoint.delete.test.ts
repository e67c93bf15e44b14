// Endpoint and tenant deletion under load: several tenants on real loopback receivers, an endpoint and a tenant
// deleted while their sends are in flight. Nothing of the others is repeated or lost, the deleted endpoints get
// nothing after their deletion beyond the sends already on the wire, and the engine logs no error doing it.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createHookline } from '../src/hookline.ts';
import { memoryLogger } from '../src/logger.ts';
import { generateMasterKey } from '../src/secret-box.ts';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import type { Store } from '../src/store/store.ts';
import { within } from '../testing/deadline.ts';
import { tempStore, testTenant } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';
import { pgTestDb } from './fixtures/pg-test-db.ts';

const EVENTS = 150;
/** The deleted endpoints' cap: at most this many of their sends can be on the wire at the moment of deletion. */
const DELETED_CAP = 2;

/** Counts requests per delivery id; `delayMs` holds each answer so sends pile up behind the cap. */
async function receiver(delayMs: number) {
  let answered = 0;
  const rx = await startReceiver(
    () =>
      new Promise<number>((r) =>
        setTimeout(() => {
          answered++;
          r(200);
        }, delayMs),
      ),
  );
  return {
    url: rx.url,
    /** Requests received and not yet answered: sends that hold one of the endpoint's slots. */
    get unanswered() {
      return rx.received.length - answered;
    },
    /** Requests per delivery id. */
    get seen() {
      const seen = new Map<string, number>();
      for (const r of rx.received)
        seen.set(String(r.headers['x-webhook-delivery']), (seen.get(String(r.headers['x-webhook-delivery'])) ?? 0) + 1);
      return seen;
    },
    get total() {
      return rx.received.length;
    },
    /** Resolves once `n` requests have been answered. */
    reached: (n: number) => rx.waitFor(n, 15_000),
    close: () => rx.close(),
  };
}

/**
 * `store` with the signing secrets of the endpoints in `warm` still readable after their deletion, as a cache or a
 * lagging replica in front of the store would answer. Signing then cannot fail for a deleted endpoint, so only the
 * dispatcher being told of the deletion keeps its queued deliveries off the wire: without it they would go out
 * signed, not fail to sign.
 */
function withWarmSecrets(store: Store, warm: Set<string>): Store {
  const kept = new Map<string, Awaited<ReturnType<Store['catalog']['listSecrets']>>>();
  const catalog = {
    ...store.catalog,
    async listSecrets(endpointId: string) {
      const rows = await store.catalog.listSecrets(endpointId);
      if (!warm.has(endpointId)) return rows;
      if (rows.length > 0) kept.set(endpointId, rows);
      return kept.get(endpointId) ?? rows;
    },
  };
  return new Proxy(store, {
    get(target, key) {
      if (key === 'catalog') return catalog;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * `leaseFactor`: how far ahead of its cap the dispatcher leases an endpoint's deliveries. What a deletion must drop is
 * the work queued in its lane (leased, not yet sending); a lane leased only up to its cap holds none by the time its
 * first sends are on the wire, so the deletion's dispatcher side could not be told apart from nothing.
 */
async function deletionUnderLoad(store: Store, leaseFactor: number): Promise<void> {
  const keptA = await receiver(0);
  const keptB = await receiver(0);
  const doomedA = await receiver(15);
  const doomedB = await receiver(15);
  const doomedC = await receiver(15);
  // ten_A's deleted endpoint keeps its secrets readable (see withWarmSecrets); ten_B's and ten_C's go with them, so
  // a queued delivery of theirs that were still processed would fail to sign and say so in the log.
  const warm = new Set<string>();
  const logger = memoryLogger();
  const engine = createHookline({
    store: withWarmSecrets(store, warm),
    logger,
    masterKey: generateMasterKey(),
    allowHttp: true,
    allowPrivateTargets: true,
    maintenance: { enabled: false },
    dispatcher: { logAttempts: false, pollMs: 50, leaseFactor },
  });
  try {
    const now = Date.now();
    for (const id of ['ten_A', 'ten_B', 'ten_C'])
      await testTenant(store, { id, at: now, fields: { name: id, ownerEmails: [], notifyEmail: false } });
    const a1 = (await engine.endpoints.create('ten_A', { url: keptA.url, max_concurrency: 10 })).endpoint;
    const a2 = (await engine.endpoints.create('ten_A', { url: doomedA.url, max_concurrency: DELETED_CAP })).endpoint;
    warm.add(a2.id);
    const b1 = (await engine.endpoints.create('ten_B', { url: keptB.url, max_concurrency: 10 })).endpoint;
    const b2 = (await engine.endpoints.create('ten_B', { url: doomedB.url, max_concurrency: DELETED_CAP })).endpoint;
    await engine.endpoints.create('ten_C', { url: doomedC.url, max_concurrency: DELETED_CAP });
    const inputs = (t: string) =>
      Array.from({ length: EVENTS }, (_, i) => ({ event_id: `${t}-${i}`, type: 'order.created', data: { i } }));
    // Every kept delivery's success is seen once by the engine; the test waits on that, not on time.
    let succeeded = 0;
    let allDone!: () => void;
    const done = new Promise<void>((r) => (allDone = r));
    engine.addObserver({
      attempt: (e) => {
        if (
          (e.claimed.endpoint.id === a1.id || e.claimed.endpoint.id === b1.id) &&
          e.next.status === 'succeeded' &&
          ++succeeded === 2 * EVENTS
        )
          allDone();
      },
    });
    for (const t of ['ten_A', 'ten_B', 'ten_C'])
      for (const r of await engine.events.acceptMany(t, inputs(t))) assert.ok(!(r instanceof Error), String(r));
    engine.start();

    await within(
      'the doomed endpoints receive their first sends',
      15_000,
      Promise.all([doomedA.reached(10), doomedB.reached(10), doomedC.reached(10)]),
    );
    await engine.endpoints.delete('ten_A', a2.id);
    const atEndpointDeletion = doomedA.total;
    const onWireAtEndpointDeletion = doomedA.unanswered;
    await engine.endpoints.delete('ten_B', b2.id);
    const atColdDeletion = doomedB.total;
    const onWireAtColdDeletion = doomedB.unanswered;
    await engine.tenants.delete('ten_C');
    const atTenantDeletion = doomedC.total;
    const onWireAtTenantDeletion = doomedC.unanswered;
    assert.ok(
      Math.max(atEndpointDeletion, atColdDeletion, atTenantDeletion) < EVENTS,
      'deleted mid-flight, with work still queued',
    );

    await within(`every kept delivery succeeds (${succeeded} of ${2 * EVENTS})`, 25_000, done);
    await engine.stop();

    for (const [name, r] of [
      ['ten_A kept endpoint', keptA],
      ['ten_B endpoint', keptB],
    ] as const) {
      assert.equal(r.seen.size, EVENTS, `${name}: every delivery arrived`);
      const dup = [...r.seen.values()].filter((n) => n > 1).length;
      assert.equal(dup, 0, `${name}: no delivery sent twice`);
    }
    for (const ep of [a1, b1]) {
      const page = await store.reporting.listDeliveries(
        { tenantId: ep.tenantId, endpointId: ep.id, status: 'succeeded' },
        null,
        1000,
      );
      assert.equal(page.items.length, EVENTS, `${ep.id}: every delivery succeeded`);
      for (const d of page.items.slice(0, 20))
        assert.equal((await store.reporting.listAttempts(d.id)).length, 1, `${d.id}: one attempt`);
    }
    // After a deletion only what was on the wire then may still arrive: the endpoint's cap holds every send begun
    // and not yet answered, so the requests still arriving are at most the cap less those the receiver held then.
    for (const [name, r, at, onWire] of [
      ['deleted endpoint', doomedA, atEndpointDeletion, onWireAtEndpointDeletion],
      ['deleted endpoint (secrets gone)', doomedB, atColdDeletion, onWireAtColdDeletion],
      ['deleted tenant', doomedC, atTenantDeletion, onWireAtTenantDeletion],
    ] as const)
      assert.ok(
        r.total - at <= DELETED_CAP - onWire,
        `${name} got ${r.total - at} sends after its deletion (${onWire} of its cap of ${DELETED_CAP} held then)`,
      );
    // Nothing the engine did around the deletions was a failure: a queued delivery of a deleted endpoint is dropped,
    // not processed until signing or recording it fails.
    const errors = logger.lines.filter((l) => l.level === 'error');
    assert.deepEqual(errors.slice(0, 3), [], `${errors.length} error lines`);
    const counts = await store.reporting.countByStatus();
    assert.deepEqual([counts.pending, counts.delivering, counts.held], [0, 0, 0], JSON.stringify(counts));
    assert.equal(await store.catalog.getTenant('ten_C'), null);
  } finally {
    await engine.stop();
    await Promise.all([keptA, keptB, doomedA, doomedB, doomedC].map((r) => r.close()));
  }
}

const pgDb = await pgTestDb();
if (pgDb.skip) console.log(`# SKIPPED the PostgreSQL run: ${pgDb.skip}`);
after(() => pgDb.cleanup());

describe('endpoint deletion under load', () => {
  test('SQLite: endpoint and tenant deleted mid-flight; 0 duplicates elsewhere, nothing sent after deletion but what was on the wire', {
    timeout: 30_000,
  }, async () => {
    const t = await tempStore({ thread: true });
    try {
      await deletionUnderLoad(t.store, 25); // the engine's own lease factor for SQLite
    } finally {
      await t.cleanup();
    }
  });

  // The engine leases PostgreSQL deliveries only up to each endpoint's cap by default (caps exact across worker
  // processes): the doomed lanes would be empty at deletion, their two sends both on the wire. One worker process
  // may lease ahead as SQLite does (dispatcher.leaseFactor), and then its lanes hold queued work the deletion drops.
  test('PostgreSQL: the same, a worker leasing ahead', { timeout: 30_000, skip: pgDb.skip ?? false }, async () => {
    const schema = `del_${process.pid}_${Date.now().toString(36)}`;
    const store = await openPostgresStore(pgDb.url!, { schema, poolMax: 6 });
    try {
      await deletionUnderLoad(store, 25);
    } finally {
      await store.pg.pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      await store.close();
    }
  });
});

describe('a deletion picked as a deadlock victim', () => {
  // PostgreSQL breaks a deadlock by aborting one side; a cascading delete is one statement outside a transaction,
  // rolled back whole, so it runs again. Another session locks a delivery row, the delete waits on it holding the
  // tenant row, the session then waits on the tenant row: the delete's backend (deadlock_timeout 1 s, the other's
  // 10 s) finds the cycle and is the victim. Before this rule the delete answered 40P01 to its caller.
  test('PostgreSQL: deleteTenant runs again and succeeds', { timeout: 30_000, skip: pgDb.skip ?? false }, async () => {
    const schema = `dlk_${process.pid}_${Date.now().toString(36)}`;
    const store = await openPostgresStore(pgDb.url!, { schema, poolMax: 4 });
    const other = await store.pg.pool.connect();
    try {
      const now = Date.now();
      await testTenant(store, { id: 'ten_D', at: now, fields: { name: 'D', ownerEmails: [], notifyEmail: false } });
      const engine = createHookline({
        store,
        masterKey: generateMasterKey(),
        allowHttp: true,
        allowPrivateTargets: true,
      });
      await engine.endpoints.create('ten_D', { url: 'http://127.0.0.1:9/hook' });
      await engine.events.acceptMany('ten_D', [{ event_id: 'e1', type: 'order.created', data: {} }]);
      await other.query(`SET search_path TO ${schema}`);
      await other.query(`SET deadlock_timeout = '10s'`);
      await other.query('BEGIN');
      await other.query(`UPDATE deliveries SET attempt_count = attempt_count WHERE tenant_id = 'ten_D'`);
      const deleting = store.catalog.deleteTenant('ten_D');
      // Until the delete waits on the delivery row (it holds the tenant row by then), the session's next lock is free.
      await within(
        'the delete waits on the locked delivery',
        10_000,
        (async () => {
          for (;;) {
            const { rows } = await store.pg.pool.query(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%DELETE FROM tenants%'`,
            );
            if (rows[0].n > 0) return;
            await new Promise((r) => setTimeout(r, 20));
          }
        })(),
      );
      await other.query(`UPDATE tenants SET name = name WHERE id = 'ten_D'`);
      await other.query('COMMIT');
      assert.equal(await deleting, true);
      assert.equal(await store.catalog.getTenant('ten_D'), null);
    } finally {
      other.release();
      await store.pg.pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      await store.close();
    }
  });
});
