// The same server over PostgreSQL (HOOKLINE_TEST_PG_URL): open, migrate, accept, deliver.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startReceiver, startTestServer, until } from './server-harness.ts';

const url = process.env.HOOKLINE_TEST_PG_URL;

test('postgres store: an event is accepted and delivered', { skip: !url && process.env.CI !== 'true' ? 'HOOKLINE_TEST_PG_URL is not set (npm test starts PostgreSQL and sets it)' : false }, async () => {
  assert.ok(url, 'HOOKLINE_TEST_PG_URL must be set in CI');
  const receiver = await startReceiver();
  // A fixed master key: other server tests on this database must be able to open its secrets check.
  const t = await startTestServer({ config: { db: url, masterKey: Buffer.alloc(32, 9).toString('base64') } });
  try {
    assert.equal(t.server.runtime.store.dialect, 'postgres');
    const ten = await t.tenant();
    await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: receiver.url } });
    const ev = await t.api('POST', `/v1/tenants/${ten}/events`, { body: { event_id: 'pg_1', type: 'order.created', data: { n: 1 } } });
    assert.equal(ev.status, 202);
    assert.equal((await t.api('POST', `/v1/tenants/${ten}/events`, { body: { event_id: 'pg_1', type: 'order.created', data: { n: 2 } } })).status, 409);
    await receiver.waitFor(1);
    const d = await until(() => t.api('GET', `/v1/tenants/${ten}/deliveries/${ev.body.deliveries[0].id}`), (r) => r.body.status === 'succeeded');
    assert.equal(d.body.attempts.length, 1);
  } finally {
    await t.close();
    await receiver.close();
  }
});
