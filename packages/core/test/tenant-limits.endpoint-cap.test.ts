// The endpoint cap under concurrent creations (docs/rules.md#tenant-limits): with max_endpoints set, the count and the
// insert are one transaction under the tenant's endpoint lock (PostgreSQL: an advisory lock, across API processes;
// SQLite: the one write lock), so eight creations at once with a cap of N leave exactly N endpoints.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { isHooklineError } from '../src/errors.ts';
import { createHookline } from '../src/hookline.ts';
import { generateMasterKey } from '../src/secret-box.ts';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import type { Store } from '../src/store/store.ts';
import { tempStore, testEngine } from '../testing/harness.ts';
import { pgTestDb } from './fixtures/pg-test-db.ts';

const pgDb = await pgTestDb();
after(() => pgDb.cleanup());

type Engine = Awaited<ReturnType<typeof testEngine>>['engine'];

/** `n` creations at once on the given engines (round robin); the outcomes, counted by kind. */
async function createAtOnce(engines: Engine[], tenantId: string, n: number): Promise<Record<string, number>> {
  const outcomes = await Promise.allSettled(
    Array.from({ length: n }, (_, i) =>
      engines[i % engines.length].endpoints.create(tenantId, { url: `http://127.0.0.1:9/${i}` }),
    ),
  );
  const counts: Record<string, number> = {};
  for (const o of outcomes) {
    const k =
      o.status === 'fulfilled' ? 'created' : isHooklineError(o.reason) ? o.reason.code : String(o.reason?.message);
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return counts;
}

/** The cap holds for 8 at once (cap 1, then cap 3 from 1), on one engine per store given. */
async function capHolds(stores: Store[]): Promise<void> {
  const masterKey = generateMasterKey();
  const t = await testEngine({ store: stores[0], masterKey });
  const others = stores
    .slice(1)
    .map((store) => createHookline({ store, clock: t.clock, masterKey, allowHttp: true, allowPrivateTargets: true }));
  const engines = [t.engine, ...others];
  try {
    await t.engine.tenants.update(t.tenantId, { limits: { max_endpoints: 1 } });
    assert.deepEqual(await createAtOnce(engines, t.tenantId, 8), { created: 1, endpoint_limit_reached: 7 });
    assert.equal((await t.engine.tenants.usage(t.tenantId)).endpoints, 1);
    // Raised to 3: two more of eight, wherever they land.
    await t.engine.tenants.update(t.tenantId, { limits: { max_endpoints: 3 } });
    assert.deepEqual(await createAtOnce(engines, t.tenantId, 8), { created: 2, endpoint_limit_reached: 6 });
    assert.equal((await t.engine.tenants.usage(t.tenantId)).endpoints, 3);
    // Without a cap nothing is counted or refused.
    await t.engine.tenants.update(t.tenantId, { limits: { max_endpoints: null } });
    assert.deepEqual(await createAtOnce(engines, t.tenantId, 4), { created: 4 });
  } finally {
    for (const e of others) await e.stop();
    await t.close();
  }
}

test('SQLite (store thread): eight creations at once with a cap leave exactly the cap', async () => {
  const s = await tempStore({ thread: true });
  try {
    await capHolds([s.store]);
  } finally {
    await s.cleanup();
  }
});

test('PostgreSQL: eight creations at once over two engines and pools with a cap leave exactly the cap', {
  skip: pgDb.skip ?? false,
}, async () => {
  const schema = `ep_cap_${process.pid}_${Date.now().toString(36)}`;
  // Two stores (two pools, as two API processes have) with room for every creation's transaction at once.
  const a = await openPostgresStore(pgDb.url!, { poolMax: 8, schema, listen: false });
  const b = await openPostgresStore(pgDb.url!, { poolMax: 8, schema, listen: false });
  try {
    await capHolds([a, b]);
  } finally {
    await b.close();
    await a.close();
    const c = new pg.Client({ connectionString: pgDb.url! });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => c.end());
  }
});
