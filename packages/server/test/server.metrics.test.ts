// /metrics: store gauges from one shared, rate-limited read; only non-terminal deliveries queued; the optional token.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveConfig } from '../src/config.ts';
import { startReceiver, startTestServer, until } from './server-harness.ts';

const METRICS_TOKEN = 'metrics-token-0123456789';

/** Counts the store reads a scrape could make. */
function countReads(store: Record<string, any>) {
  const calls: Record<string, number> = {};
  const reads = [
    ['reporting', 'countQueued'],
    ['reporting', 'countBreakers'],
    ['reporting', 'countByStatus'],
    ['catalog', 'listTenants'],
    ['breakers', 'listBreakers'],
  ];
  for (const [part, name] of reads) {
    const original = store[part][name];
    calls[name] = 0;
    store[part][name] = async (...args: unknown[]) => {
      calls[name]++;
      return original(...args);
    };
  }
  return calls;
}

test('50 concurrent scrapes within a refresh interval make one store read, and no full scans', async () => {
  // An interval no run can outlast, however loaded the machine: the count does not depend on speed.
  const t = await startTestServer({ config: { metricsRefresh: '1h' } });
  try {
    const calls = countReads(t.server.runtime.store as never);
    const scrapes = await Promise.all(Array.from({ length: 50 }, () => t.api('GET', '/metrics', { token: null })));
    assert.ok(scrapes.every((r) => r.status === 200));
    assert.deepEqual(calls, { countQueued: 1, countBreakers: 1, countByStatus: 0, listTenants: 0, listBreakers: 0 });
  } finally {
    await t.close();
  }
});

test('once the refresh interval has passed, scrapes read the store again', async () => {
  const t = await startTestServer({ config: { metricsRefresh: '100ms' } });
  try {
    const calls = countReads(t.server.runtime.store as never);
    await until(
      async () => (await t.api('GET', '/metrics', { token: null }), calls.countQueued),
      (n) => n >= 2,
    );
    assert.equal(calls.countByStatus + calls.listTenants + calls.listBreakers, 0, 'no full scans');
  } finally {
    await t.close();
  }
});

test('hookline_queue_depth counts only deliveries not yet terminal', async () => {
  const t = await startTestServer({ config: { metricsRefresh: '100ms' } });
  const receiver = await startReceiver();
  try {
    const ten = await t.tenant();
    await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: receiver.url } });
    const ev = await t.api('POST', `/v1/tenants/${ten}/events`, { body: { type: 'order.created', data: {} } });
    await until(
      () => t.api('GET', `/v1/tenants/${ten}/deliveries/${ev.body.deliveries[0].id}`),
      (r) => r.body.status === 'succeeded',
    );
    const text = (
      await until(
        () => t.api('GET', '/metrics', { token: null }),
        (r) => /^hookline_queue_depth\{status="pending"\} 0$/m.test(r.body),
      )
    ).body as string;
    assert.deepEqual(
      text.match(/^hookline_queue_depth\{status="(\w+)"\}/gm)?.map((l) => l.slice(29, -2)),
      ['pending', 'delivering', 'held'],
    );
  } finally {
    await receiver.close();
    await t.close();
  }
});

test('an endpoint answering 503 lowers its hookline_endpoint_effective_concurrency gauge and its effective_concurrency in the API', async () => {
  const t = await startTestServer({ config: { metricsRefresh: '100ms' } });
  const receiver = await startReceiver(() => 503);
  try {
    const ten = await t.tenant();
    const ep = (
      await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: receiver.url, max_concurrency: 4 } })
    ).body;
    await t.api('POST', `/v1/tenants/${ten}/events`, { body: { type: 'order.created', data: {} } });
    const line = new RegExp(`^hookline_endpoint_effective_concurrency\\{endpoint_id="${ep.id}"\\} (\\d+)$`, 'm');
    const text = (
      await until(
        () => t.api('GET', '/metrics', { token: null }),
        (r) => line.test(r.body),
      )
    ).body as string;
    assert.ok(Number(text.match(line)![1]) < 4, text.match(line)![0]);
    const read = await until(
      () => t.api('GET', `/v1/tenants/${ten}/endpoints/${ep.id}`),
      (r) => r.body.effective_concurrency < 4,
    );
    assert.equal(read.body.max_concurrency, 4);
  } finally {
    await receiver.close();
    await t.close();
  }
});

test('with metricsToken set, /metrics answers 401 unauthorized without the bearer token or with a wrong one', async () => {
  const t = await startTestServer({ env: { HOOKLINE_METRICS_TOKEN: METRICS_TOKEN } });
  try {
    for (const token of [null, 'wrong-token-0123456789', `${METRICS_TOKEN}x`]) {
      const r = await t.api('GET', '/metrics', { token });
      assert.equal(r.status, 401);
      assert.equal(r.body.error.code, 'unauthorized');
    }
    const ok = await t.api('GET', '/metrics', { token: METRICS_TOKEN });
    assert.equal(ok.status, 200);
    assert.match(ok.body, /# TYPE hookline_queue_depth gauge/);
    // The probes stay open.
    assert.equal((await t.api('GET', '/healthz', { token: null })).status, 200);
  } finally {
    await t.close();
  }
});

test('metricsToken and metricsRefresh are validated with one line naming the key', () => {
  assert.throws(
    () => resolveConfig({ env: { HOOKLINE_METRICS_TOKEN: 'short' } }),
    /^ConfigError: config metricsToken: must be at least 16 characters$|config metricsToken/,
  );
  assert.throws(
    () => resolveConfig({ env: { HOOKLINE_METRICS_REFRESH: '10ms' } }),
    /config metricsRefresh: must be from 100ms to 1h/,
  );
  assert.throws(() => resolveConfig({ argv: { metricsRefresh: 'soon' } }), /config metricsRefresh/);
  const c = resolveConfig({ env: {} });
  assert.equal(c.metricsToken, null);
  assert.equal(c.metricsRefreshMs, 5000);
});

test("/metrics keeps Hookline's names and help texts and adds the process and event-loop metrics", async () => {
  const t = await startTestServer();
  try {
    const r = await t.api('GET', '/metrics', { token: null });
    assert.equal(r.status, 200);
    assert.match(String(r.headers.get('content-type')), /^text\/plain; version=0\.0\.4/);
    const help = Object.fromEntries(
      (r.body as string)
        .match(/^# HELP hookline_\S+ .*$/gm)!
        .map((l) => [l.split(' ')[2], l.slice(l.indexOf(' ', 7) + 1)]),
    );
    assert.deepEqual(help, {
      hookline_attempts_total: 'Delivery attempts by outcome (success, delivery_failure, client_error) and trigger.',
      hookline_attempt_duration_seconds: 'Duration of one delivery attempt (the HTTP request).',
      hookline_delivery_latency_seconds:
        "Time from accepting an event to the end of its delivery's successful attempt.",
      hookline_deliveries_held_total: 'Times a due delivery was held by an open circuit breaker.',
      hookline_deliveries_ended_without_attempt_total:
        'Deliveries ended without an attempt (age limit while held, endpoint paused).',
      hookline_endpoint_effective_concurrency:
        'Sends this worker allows an endpoint at once, learned from its 429/503 answers and latency (1 … max_concurrency).',
      hookline_settings_mismatch:
        'Whether another live process on this database has a different value of this setting (1) or not (0).',
      hookline_http_requests_total: 'API requests by method, route and status class.',
      hookline_queue_depth:
        'Deliveries not yet terminal, by status (pending, delivering, held), read at most once per refresh interval.',
      hookline_breaker_open: 'Circuit breakers currently open (state=open) or probing (state=probing).',
    });
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      assert.match(r.body, new RegExp(`^# TYPE ${name} (counter|gauge)$`, 'm'), name);
      assert.match(r.body, new RegExp(`^${name} [0-9.e+-]+$`, 'm'), name);
    }
  } finally {
    await t.close();
  }
});
