// Endpoint and tenant deletion under load: several tenants on real loopback receivers, an endpoint and a tenant
// deleted while their sends are in flight. Nothing of the others is repeated or lost, and the deleted endpoints get
// nothing after their deletion beyond the sends already on the wire.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createHookline } from '../src/hookline.ts';
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
  const rx = await startReceiver(() => new Promise<number>((r) => setTimeout(() => r(200), delayMs)));
  return {
    url: rx.url,
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

async function deletionUnderLoad(store: Store): Promise<void> {
  const keptA = await receiver(0);
  const keptB = await receiver(0);
  const doomedA = await receiver(15);
  const doomedC = await receiver(15);
  const engine = createHookline({
    store,
    masterKey: generateMasterKey(),
    allowHttp: true,
    allowPrivateTargets: true,
    maintenance: { enabled: false },
    dispatcher: { logAttempts: false, pollMs: 50 },
  });
  try {
    const now = Date.now();
    for (const id of ['ten_A', 'ten_B', 'ten_C'])
      await testTenant(store, { id, at: now, fields: { name: id, ownerEmails: [], notifyEmail: false } });
    const a1 = (await engine.endpoints.create('ten_A', { url: keptA.url, max_concurrency: 10 })).endpoint;
    const a2 = (await engine.endpoints.create('ten_A', { url: doomedA.url, max_concurrency: DELETED_CAP })).endpoint;
    const b1 = (await engine.endpoints.create('ten_B', { url: keptB.url, max_concurrency: 10 })).endpoint;
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
      Promise.all([doomedA.reached(10), doomedC.reached(10)]),
    );
    await engine.endpoints.delete('ten_A', a2.id);
    const atEndpointDeletion = doomedA.total;
    await engine.tenants.delete('ten_C');
    const atTenantDeletion = doomedC.total;
    assert.ok(atEndpointDeletion < EVENTS && atTenantDeletion < EVENTS, 'deleted mid-flight, with work still queued');

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
      const page = await store.listDeliveries(
        { tenantId: ep.tenantId, endpointId: ep.id, status: 'succeeded' },
        null,
        1000,
      );
      assert.equal(page.items.length, EVENTS, `${ep.id}: every delivery succeeded`);
      for (const d of page.items.slice(0, 20))
        assert.equal((await store.listAttempts(d.id)).length, 1, `${d.id}: one attempt`);
    }
    // After a deletion only what was on the wire then may still arrive: at most the endpoint's cap.
    assert.ok(
      doomedA.total - atEndpointDeletion <= DELETED_CAP,
      `deleted endpoint got ${doomedA.total - atEndpointDeletion} sends after its deletion`,
    );
    assert.ok(
      doomedC.total - atTenantDeletion <= DELETED_CAP,
      `deleted tenant got ${doomedC.total - atTenantDeletion} sends after its deletion`,
    );
    const counts = await store.countByStatus();
    assert.deepEqual([counts.pending, counts.delivering, counts.held], [0, 0, 0], JSON.stringify(counts));
    assert.equal(await store.getTenant('ten_C'), null);
  } finally {
    await engine.stop();
    await Promise.all([keptA, keptB, doomedA, doomedC].map((r) => r.close()));
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
      await deletionUnderLoad(t.store);
    } finally {
      await t.cleanup();
    }
  });

  test('PostgreSQL: the same', { timeout: 30_000, skip: pgDb.skip ?? false }, async () => {
    const schema = `del_${process.pid}_${Date.now().toString(36)}`;
    const store = await openPostgresStore(pgDb.url!, { schema, poolMax: 6 });
    try {
      await deletionUnderLoad(store);
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
      const deleting = store.deleteTenant('ten_D');
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
      assert.equal(await store.getTenant('ten_D'), null);
    } finally {
      other.release();
      await store.pg.pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      await store.close();
    }
  });
});
