// On PostgreSQL the API's event searches read on their own small pool (application_name <name>-search, its own
// statement timeout), never on the connections delivery uses.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { PostgresDriver } from '../src/store/postgres/postgres-driver.ts';
import { pgTestDb } from './fixtures/pg-test-db.ts';

const db = await pgTestDb();
if (db.skip) console.log(`# SKIPPED store.search-pool: ${db.skip}`);
after(() => db.cleanup());

test('searches read on the search pool, at most searchPoolMax connections, none of the main pool', {
  skip: db.skip ?? false,
}, async (t) => {
  const schema = `search_pool_${process.pid}_${Date.now().toString(36)}`;
  const app = `hl-search-test-${process.pid}`;
  const driver = new PostgresDriver(db.url!, { schema, applicationName: app, listen: false, searchPoolMax: 2 });
  const watcher = new pg.Client({ connectionString: db.url! });
  await watcher.connect();
  t.after(async () => {
    await driver.close();
    await watcher.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    await watcher.end();
  });
  await watcher.query(`CREATE SCHEMA ${schema}`);
  await driver.migrate();
  const sessions = async () =>
    (
      await watcher.query<{ application_name: string; n: number }>(
        'SELECT application_name, count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE $1 GROUP BY 1 ORDER BY 1',
        [`${app}%`],
      )
    ).rows.map((r) => [r.application_name, r.n]);
  const mainBefore = driver.connections.total;
  assert.ok(driver.search, 'PostgreSQL offers a search reader');
  await Promise.all(
    Array.from({ length: 6 }, () => driver.search!.all('count-events-up-to', { tenant_id: 'ten_x', cap: 10 })),
  );
  assert.equal(driver.connections.total, mainBefore, "the searches took none of the main pool's connections");
  const live = new Map((await sessions()) as Array<[string, number]>);
  assert.equal(live.get(`${app}-search`), 2, 'six searches at once shared the pool of two');
});
