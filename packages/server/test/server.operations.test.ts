// Probes, metrics, the served OpenAPI document, roles, and the 500/503 paths: never a bare 500, never a crash.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { OPENAPI_PATH } from '../src/openapi/generate-openapi.ts';
import { startReceiver, startTestServer, until } from './server-harness.ts';

test('healthz, readyz, openapi.json and metrics need no token', async () => {
  const t = await startTestServer();
  const receiver = await startReceiver();
  try {
    assert.deepEqual((await t.api('GET', '/healthz', { token: null })).body, { status: 'ok', role: 'all' });
    assert.deepEqual((await t.api('GET', '/readyz', { token: null })).body, { status: 'ready', role: 'all' });
    const doc = await t.api('GET', '/openapi.json', { token: null });
    assert.deepEqual(doc.body, JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')));

    const ten = await t.tenant();
    await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: receiver.url } });
    const ev = await t.api('POST', `/v1/tenants/${ten}/events`, { body: { type: 'order.created', data: {} } });
    await until(() => t.api('GET', `/v1/tenants/${ten}/deliveries/${ev.body.deliveries[0].id}`), (r) => r.body.status === 'succeeded');
    const m = await t.api('GET', '/metrics', { token: null });
    assert.equal(m.status, 200);
    assert.match(m.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = m.body as string;
    assert.match(text, /^hookline_attempts_total\{outcome="success",trigger="scheduled"\} 1$/m);
    assert.match(text, /^hookline_attempt_duration_seconds_count 1$/m);
    assert.match(text, /^hookline_delivery_latency_seconds_bucket\{le="\+Inf"\} 1$/m);
    assert.match(text, /^hookline_queue_depth\{status="succeeded"\} 1$/m);
    assert.match(text, /^hookline_breaker_open\{state="open"\} 0$/m);
    assert.match(text, /# TYPE hookline_delivery_latency_seconds histogram/);
  } finally {
    await receiver.close();
    await t.close();
  }
});

test('unexpected failures are an opaque 500 internal_error, logged with the cause; a closed store is 503', async () => {
  const t = await startTestServer();
  try {
    const ten = await t.tenant();
    const store = t.server.runtime.store;
    const original = store.listEndpoints.bind(store);
    store.listEndpoints = async () => {
      throw new Error('secret internals: boom');
    };
    const r = await t.api('GET', `/v1/tenants/${ten}/endpoints`);
    store.listEndpoints = original;
    assert.equal(r.status, 500);
    assert.deepEqual(Object.keys(r.body.error).sort(), ['code', 'message', 'request_id']);
    assert.equal(r.body.error.code, 'internal_error');
    assert.ok(!JSON.stringify(r.body).includes('boom'));
    const line = t.logs.find((l) => l.msg === 'internal error' && l.request_id === r.body.error.request_id);
    assert.ok(line && String(line.error).includes('boom'));

    store.getTenant = async () => {
      throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    };
    const busy = await t.api('GET', `/v1/tenants/${ten}`);
    assert.equal(busy.status, 503);
    assert.equal(busy.body.error.code, 'storage_unavailable');
    store.ping = async () => false;
    const ready = await t.api('GET', '/readyz', { token: null });
    assert.equal(ready.status, 503);
    assert.equal(ready.body.error.code, 'storage_unavailable');
    assert.equal((await t.api('GET', '/healthz', { token: null })).status, 200);
  } finally {
    await t.close();
  }
});

test('role api accepts events but never dispatches; role worker serves only probes and metrics, and dispatches', async () => {
  const receiver = await startReceiver();
  // Both processes share the database, so they share the master key too.
  const masterKey = Buffer.alloc(32, 3).toString('base64');
  const api = await startTestServer({ config: { role: 'api', masterKey } });
  const db = join(api.dir, 'hookline.db');
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
      await until(() => api.api('GET', `/v1/tenants/${ten}/deliveries/${ev.body.deliveries[0].id}`), (r) => r.body.status === 'succeeded');
    } finally {
      await worker.close();
    }
  } finally {
    await api.close();
    await receiver.close();
  }
});
