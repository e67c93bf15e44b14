// A delivery in flight reads as delivering through every read of the engine, not only through /v1's: the Svix
// message read (MessageOperations.get, by Hookline's event id) and event search show it as the delivery detail does.
// SQLite keeps its leases in memory (docs/rules.md#sqlite-leases): a read that maps delivery rows without the queue's
// lease view would show the delivery pending.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { VirtualClock } from '../src/clock.ts';
import { createHookline } from '../src/hookline.ts';
import { generateMasterKey } from '../src/secret-box.ts';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import { openSqliteThreadStore } from '../src/store/sqlite/sqlite-thread.ts';
import type { Store } from '../src/store/store.ts';
import { endpoint, H, secret, T0, tenant } from '../testing/store-conformance/fixtures.ts';
import { pgTestDb } from './fixtures/pg-test-db.ts';

async function inFlightReadsAsDelivering(store: Store): Promise<void> {
  await store.catalog.createTenant(tenant('ten_A'));
  await store.catalog.createEndpoint(endpoint('ep_1', 'ten_A'), secret('k1', 'ep_1'));
  const clock = new VirtualClock(T0);
  const engine = createHookline({ store, clock, masterKey: generateMasterKey(), allowHttp: true });
  try {
    const sent = await engine.messages.send('ten_A', { type: 'thing.happened', data: { n: 1 } });
    assert.equal(sent.deliveries.length, 1);
    const [c] = await store.queue.claimDue({
      now: clock.now(),
      limit: 10,
      leaseUntil: clock.now() + H,
      workerId: 'wrk_test',
      saturatedEndpoints: [],
    });
    assert.equal(c?.delivery.id, sent.deliveries[0].id, 'the message’s delivery is in flight');

    const detail = await engine.deliveries.detail('ten_A', c.delivery.id);
    assert.equal(detail.delivery.status, 'delivering', '/v1 delivery detail');
    const message = await engine.messages.get('ten_A', sent.event.id);
    assert.deepEqual(
      message.deliveries.map((d) => [d.id, d.status]),
      [[c.delivery.id, 'delivering']],
      'the Svix message read',
    );
    const byEventId = await engine.messages.get('ten_A', sent.event.eventId);
    assert.equal(byEventId.deliveries[0].status, 'delivering', 'the message read by the caller’s event id');
    const found = await engine.events.search({ tenantId: 'ten_A' }, null, 10);
    assert.deepEqual(
      found.items.map((h) => h.deliveries.map((d) => [d.deliveryId, d.status])),
      [[[c.delivery.id, 'delivering']]],
      'event search',
    );
  } finally {
    await engine.stop();
  }
}

test('SQLite: the Svix message read and event search show a delivery in flight as delivering', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-lease-view-'));
  const store = await openSqliteThreadStore(join(dir, 'h.db'));
  try {
    await inFlightReadsAsDelivering(store);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const db = await pgTestDb();
if (db.skip) console.log(`# SKIPPED store.lease-view postgres: ${db.skip}`);
after(() => db.cleanup());

test('PostgreSQL: the Svix message read and event search show a delivery in flight as delivering', {
  skip: db.skip ?? false,
}, async () => {
  const schema = `lv_${process.pid}_${Date.now().toString(36)}`;
  const store = await openPostgresStore(db.url!, { poolMax: 4, schema });
  try {
    await inFlightReadsAsDelivering(store);
  } finally {
    await store.close();
    const c = new pg.Client(db.url!);
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  }
});
