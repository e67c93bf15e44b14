// The breaker, the health sweep and retention on PostgreSQL: the same engine paths as the SQLite tests, other SQL.

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import { startReceiver } from '../testing/receiver.ts';
import { settle } from '../testing/settle.ts';
import { breakerEngine, DAY, events, MIN } from './breaker-fixtures.ts';
import { pgTestDb } from './fixtures/pg-test-db.ts';

const db = await pgTestDb();
if (db.skip) console.log(`# SKIPPED breaker.postgres: ${db.skip}`);
after(() => db.cleanup());

async function pgStore() {
  const schema = `brk_${process.pid}_${Date.now().toString(36)}`;
  const store = await openPostgresStore(db.url!, { poolMax: 4, schema });
  return {
    store,
    async cleanup() {
      await store.close();
      const c = new pg.Client(db.url!);
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    },
  };
}

test('PostgreSQL: open, one probe, close and release; the 5-day sweep; bucket retention', {
  skip: db.skip ?? false,
}, async () => {
  const s = await pgStore();
  const t = await breakerEngine({ store: s.store });
  let answer = 500;
  const rx = await startReceiver(() => answer, { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments' });
    const t0 = t.clock.now();
    await t.engine.events.acceptMany(t.tenantId, events(5));
    await t.engine.runDue();
    assert.equal((await t.engine.breakers.status({ tenantId: t.tenantId })).state, 'open');
    await t.engine.events.acceptMany(t.tenantId, events(10, 'late'));
    await t.engine.runDue();
    assert.equal((await t.store.reporting.countByStatus()).held, 10);
    answer = 200;
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, 5 + 15);
    assert.ok(rx.received.slice(5).every((r) => r.at === t0 + 5 * MIN));
    assert.deepEqual(
      t.transitions.map((x) => x.reason),
      ['failure_ratio', 'probe_claimed', 'probe_succeeded'],
    );

    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, event_types: ['std.*'] });
    answer = 500;
    await t.engine.events.accept(t.tenantId, { type: 'std.x', data: {} });
    await t.engine.runDue();
    const since = (await t.engine.endpoints.get(t.tenantId, endpoint.id)).failingSince!;
    const r = await t.engine.maintenance.run(since + 5 * DAY);
    assert.equal(r.health.length, 1);
    assert.equal((await t.engine.endpoints.get(t.tenantId, endpoint.id)).pauseReason, 'failing');
    assert.ok(r.purged.breakerWindow >= 1);
  } finally {
    await rx.close();
    await t.close();
    await s.cleanup();
  }
});
