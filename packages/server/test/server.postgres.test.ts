// The same server over PostgreSQL (HOOKLINE_TEST_PG_URL): open, migrate, accept, deliver.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startReceiver, startTestServer, until } from './server-harness.ts';

const url = process.env.HOOKLINE_TEST_PG_URL;

test('postgres store: an event is accepted and delivered', {
  skip:
    !url && process.env.CI !== 'true'
      ? 'HOOKLINE_TEST_PG_URL is not set (npm test starts PostgreSQL and sets it)'
      : false,
}, async () => {
  assert.ok(url, 'HOOKLINE_TEST_PG_URL must be set in CI');
  const receiver = await startReceiver();
  // A fixed master key: other server tests on this database must be able to open its secrets check.
  const t = await startTestServer({ config: { db: url, masterKey: Buffer.alloc(32, 9).toString('base64') } });
  try {
    assert.equal(t.server.runtime.store.dialect, 'postgres');
    const ten = await t.tenant();
    await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: receiver.url } });
    const ev = await t.api('POST', `/v1/tenants/${ten}/events`, {
      body: { event_id: 'pg_1', type: 'order.created', data: { n: 1 } },
    });
    assert.equal(ev.status, 202);
    assert.equal(
      (
        await t.api('POST', `/v1/tenants/${ten}/events`, {
          body: { event_id: 'pg_1', type: 'order.created', data: { n: 2 } },
        })
      ).status,
      409,
    );
    await receiver.waitFor(1);
    const d = await until(
      () => t.api('GET', `/v1/tenants/${ten}/deliveries/${ev.body.deliveries[0].id}`),
      (r) => r.body.status === 'succeeded',
    );
    assert.equal(d.body.attempts.length, 1);
  } finally {
    await t.close();
    await receiver.close();
  }
});

test('postgres: role api accepts events but never dispatches; role worker serves only probes and metrics, and dispatches', {
  skip:
    !url && process.env.CI !== 'true'
      ? 'HOOKLINE_TEST_PG_URL is not set (npm test starts PostgreSQL and sets it)'
      : false,
}, async () => {
  assert.ok(url, 'HOOKLINE_TEST_PG_URL must be set in CI');
  const receiver = await startReceiver();
  // Both processes share the database, so they share the master key too (the same as the test above).
  const masterKey = Buffer.alloc(32, 9).toString('base64');
  const db = url;
  const api = await startTestServer({ config: { role: 'api', db, masterKey } });
  try {
    const ten = await api.tenant();
    await api.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: receiver.url } });
    const ev = await api.api('POST', `/v1/tenants/${ten}/events`, { body: { type: 'order.created', data: {} } });
    assert.equal(ev.status, 202);
    assert.equal((await api.api('GET', '/healthz', { token: null })).body.role, 'api');
    assert.equal(receiver.received.length, 0);

    // A worker on the same database picks the delivery up.
    const worker = await startTestServer({ config: { role: 'worker', db, masterKey } });
    try {
      const v1 = await worker.api('GET', `/v1/tenants/${ten}`);
      assert.equal(v1.status, 404);
      assert.equal(v1.body.error.code, 'not_found');
      assert.equal((await worker.api('GET', '/readyz', { token: null })).status, 200);
      assert.equal((await worker.api('GET', '/metrics', { token: null })).status, 200);
      await receiver.waitFor(1);
      await until(
        () => api.api('GET', `/v1/tenants/${ten}/deliveries/${ev.body.deliveries[0].id}`),
        (r) => r.body.status === 'succeeded',
      );
    } finally {
      await worker.close();
    }
  } finally {
    await api.close();
    await receiver.close();
  }
});
