// PostgreSQL connections the server cuts (pg_terminate_backend from another session: the FATAL a restart or crash
// sends too) while they sit in the pool, idle or released, or idle inside a transaction: the process survives (an
// unheard 'error' event would end it, and node:test reports it as this test's failure), the pool reports the idle
// ones, and the store goes on on fresh connections.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { PostgresDriver } from '../src/store/postgres/postgres-driver.ts';
import { until, within } from '../testing/deadline.ts';
import { pgTestDb } from './fixtures/pg-test-db.ts';

const db = await pgTestDb();
after(() => db.cleanup());

test('connections cut in the pool (idle, released, idle in a transaction) leave the process and the store working', {
  skip: db.skip ?? false,
}, async (t) => {
  const schema = `pool_errors_${process.pid}_${Date.now().toString(36)}`;
  const app = `hl-pool-errors-${process.pid}`;
  const errors: string[] = [];
  const driver = new PostgresDriver(db.url!, {
    schema,
    applicationName: app,
    listen: false,
    poolMax: 4,
    onError: (_err, where) => void errors.push(where),
  });
  const admin = new pg.Client({ connectionString: db.url! });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await driver.migrate();
  // The transaction below waits on this gate: opened on every path, so a failed wait cannot hang the pool's close.
  let goOn = () => {};
  t.after(async () => {
    goOn();
    await driver.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    await admin.end();
  });
  /** Terminates every session of `name`; how many. */
  const cut = async (name: string) =>
    (
      await admin.query<{ n: number }>(
        'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1',
        [name],
      )
    ).rows[0].n;
  /** Sessions of `name` on the server, in `state` (null: any). */
  const sessions = async (name: string, state: string | null) =>
    (
      await admin.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND ($2::text IS NULL OR state = $2)',
        [name, state],
      )
    ).rows[0].n;

  const count = async () => (await driver.all<{ n: number }>('count-tenant-endpoints', { tenant_id: 'ten_none' }))[0].n;

  // Released connections, idle in both pools: four reads at once leave four in the main pool, two in the search pool.
  await Promise.all(Array.from({ length: 4 }, () => count()));
  const search = driver.search;
  await Promise.all(Array.from({ length: 2 }, () => search.all('count-events-up-to', { tenant_id: 'ten_x', cap: 1 })));
  await until(
    () => sessions(app, 'idle'),
    (n) => n === 4,
    { what: 'the pooled sessions to be idle' },
  );
  assert.equal(await cut(app), 4);
  assert.equal(await cut(`${app}-search`), 2);
  await until(
    () => errors.length,
    (n) => n === 6,
    { what: 'the pools to hear of every cut' },
  );
  assert.deepEqual(errors.sort(), [...Array(4).fill('idle connection'), ...Array(2).fill('idle search connection')]);
  assert.equal(await count(), 0, 'the store reads on a fresh connection');
  assert.equal(
    await search.all('count-events-up-to', { tenant_id: 'ten_x', cap: 1 }).then((r) => (r as unknown[]).length),
    1,
  );

  // Idle inside a transaction: the cut connection is given back broken, and the work runs again on a fresh one.
  let runs = 0;
  let inside!: () => void;
  const entered = new Promise<void>((r) => (inside = r));
  const gate = new Promise<void>((r) => (goOn = r));
  const tx = driver.transaction(async (q) => {
    runs++;
    await q.all('count-tenant-endpoints', { tenant_id: 'ten_none' });
    if (runs === 1) {
      inside();
      await gate;
    }
    return (await q.all<{ n: number }>('count-tenant-endpoints', { tenant_id: 'ten_none' }))[0].n;
  });
  await within('the transaction to start', 10_000, entered);
  await until(
    () => sessions(app, 'idle in transaction'),
    (n) => n === 1,
    { what: 'the session to be idle in its transaction' },
  );
  assert.equal(await cut(app), 1);
  // The session is gone on the server (its FATAL sent) before the transaction goes on.
  await until(
    () => sessions(app, null),
    (n) => n === 0,
    { what: 'the cut session to end' },
  );
  goOn();
  assert.equal(Number(await within('the transaction to finish', 20_000, tx)), 0);
  assert.equal(runs, 2, 'ran again on a fresh connection');
  assert.equal(await count(), 0);
});
