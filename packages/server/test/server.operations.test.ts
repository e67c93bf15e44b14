// Probes, metrics, the served OpenAPI document, roles, and the 500/503 paths: never a bare 500, never a crash.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { OPENAPI_PATH } from '../scripts/generate-openapi.ts';
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
    await until(
      () => t.api('GET', `/v1/tenants/${ten}/deliveries/${ev.body.deliveries[0].id}`),
      (r) => r.body.status === 'succeeded',
    );
    // The attempt observers run after the record's commit, so a reader may see `succeeded` a moment before the counters.
    const m = await until(
      () => t.api('GET', '/metrics', { token: null }),
      (r) => /^hookline_attempts_total\{outcome="success"/m.test(String(r.body)),
    );
    assert.equal(m.status, 200);
    assert.match(m.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = m.body as string;
    assert.match(text, /^hookline_attempts_total\{outcome="success",trigger="scheduled"\} 1$/m);
    assert.match(text, /^hookline_attempt_duration_seconds_count 1$/m);
    assert.match(text, /^hookline_delivery_latency_seconds_bucket\{le="\+Inf"\} 1$/m);
    assert.match(text, /^hookline_queue_depth\{status="pending"\} 0$/m);
    assert.doesNotMatch(text, /hookline_queue_depth\{status="succeeded"\}/, 'terminal deliveries are not queued');
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
    const original = store.catalog.listEndpoints.bind(store);
    store.catalog.listEndpoints = async () => {
      throw new Error('secret internals: boom');
    };
    const r = await t.api('GET', `/v1/tenants/${ten}/endpoints`);
    store.catalog.listEndpoints = original;
    assert.equal(r.status, 500);
    assert.deepEqual(Object.keys(r.body.error).sort(), ['code', 'message', 'request_id']);
    assert.equal(r.body.error.code, 'internal_error');
    assert.ok(!JSON.stringify(r.body).includes('boom'));
    const line = t.logs.find((l) => l.msg === 'internal error' && l.request_id === r.body.error.request_id);
    assert.ok(line && String(line.error).includes('boom'));

    store.catalog.getTenant = async () => {
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

test('roles api and worker are refused on SQLite at start: one process owns the file', async () => {
  for (const role of ['api', 'worker']) {
    await assert.rejects(startTestServer({ config: { role } }), (err: Error) => {
      assert.equal(err.name, 'ConfigError');
      assert.match(
        err.message,
        new RegExp(`^config role: ${role} needs PostgreSQL; on SQLite one process owns the file: use --role all`),
      );
      return true;
    });
  }
});
