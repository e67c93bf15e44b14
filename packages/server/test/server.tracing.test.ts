// Tracing end to end (docs/observability.md#traces): a producer's trace continues through Hookline into the receiver
// (same trace id, parent = the attempt's span), proven against a real OTLP/HTTP receiver on loopback, in protobuf and
// JSON, on SQLite (one process) and on PostgreSQL with split roles (an api process and a worker process).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { ownChild } from '@hookline/core/testing';
import pg from 'pg';
import { startOtlpReceiver } from './fixtures/otlp-receiver.ts';
import type { ReceivedSpan } from './fixtures/otlp-wire.ts';
import { type ServeProcess, serveApi, startServe } from './fixtures/serve-process.ts';
import { ADMIN_TOKEN, startReceiver, startTestServer, until, within } from './server-harness.ts';

const SERVER = 2;
const CLIENT = 3;

function producer() {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** The receiver's traceparent header, split: the receiver's own tracing would continue exactly this. */
function incoming(headers: Record<string, string | string[] | undefined>): { traceId: string; parentId: string } {
  const v = headers.traceparent;
  assert.equal(typeof v, 'string', `the attempt carries a traceparent: ${JSON.stringify(headers)}`);
  const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(v as string);
  assert.ok(m, `a sampled version-00 traceparent: ${v}`);
  return { traceId: m[1]!, parentId: m[2]! };
}

function assertAttemptSpan(
  span: ReceivedSpan,
  p: ReturnType<typeof producer>,
  ids: { endpoint: string; delivery: string },
) {
  assert.equal(span.traceId, p.traceId, "the attempt is in the producer's trace");
  assert.equal(span.parentSpanId, p.spanId, "the attempt's parent is the producer's span");
  assert.equal(span.kind, CLIENT);
  assert.equal(span.name, 'POST');
  assert.equal(span.attributes['http.request.method'], 'POST');
  assert.equal(span.attributes['http.response.status_code'], 200);
  assert.match(String(span.attributes['url.full']), /^http:\/\/127\.0\.0\.1:\d+\/hook\?token=REDACTED$/);
  assert.equal(span.attributes['hookline.endpoint.id'], ids.endpoint);
  assert.equal(span.attributes['hookline.delivery.id'], ids.delivery);
  assert.equal(span.attributes['hookline.attempt.number'], 1);
  assert.equal(span.attributes['hookline.attempt.ladder'], 'fast');
  assert.equal(span.attributes['hookline.attempt.trigger'], 'scheduled');
  assert.equal(span.attributes['hookline.attempt.outcome'], 'success');
}

test('SQLite, OTLP/JSON: the producer trace continues through the accept and the attempt into the receiver; replays and test sends are spans', async (t) => {
  const otlp = await startOtlpReceiver();
  t.after(() => otlp.close());
  const receiver = await startReceiver();
  t.after(() => receiver.close());
  const srv = await startTestServer({
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=k%201',
      OTEL_SERVICE_NAME: 'hookline-test',
      OTEL_BSP_SCHEDULE_DELAY: '20',
    },
  });
  t.after(() => srv.close());
  const tenant = await srv.tenant();
  const ep = await srv.api('POST', `/v1/tenants/${tenant}/endpoints`, {
    body: { url: `${receiver.url}?token=s3cret`, event_types: ['order.created'] },
  });
  assert.equal(ep.status, 201, JSON.stringify(ep.body));
  const p = producer();
  const sent = await srv.api('POST', `/v1/tenants/${tenant}/events`, {
    body: { type: 'order.created', data: { n: 1 } },
    headers: { traceparent: p.traceparent, tracestate: 'vendor=abc' },
  });
  assert.equal(sent.status, 202, JSON.stringify(sent.body));
  const delivery = sent.body.deliveries[0].id as string;
  await receiver.waitFor(1);
  const got = incoming(receiver.received[0]!.headers);
  assert.equal(got.traceId, p.traceId, 'the receiver continues the producer trace');
  assert.notEqual(got.parentId, p.spanId, "the receiver's parent is the attempt, not the producer");
  assert.equal(receiver.received[0]!.headers.tracestate, 'vendor=abc', 'tracestate travels on');

  const attempt = await otlp.span('the attempt span', (s) => s.spanId === got.parentId);
  assertAttemptSpan(attempt, p, { endpoint: ep.body.id, delivery });
  assert.equal(JSON.stringify(attempt).includes('s3cret'), false, 'no query secret in the span');
  const accept = await otlp.span('the accept span', (s) => s.kind === SERVER && s.traceId === p.traceId);
  assert.equal(accept.parentSpanId, p.spanId);
  assert.equal(accept.name, 'POST /v1/tenants/:tenant/events');
  assert.equal(accept.attributes['http.response.status_code'], 202);
  assert.equal(accept.resource['service.name'], 'hookline-test');
  assert.ok(otlp.contentTypes.every((c) => c === 'application/json'));
  assert.equal(otlp.requestHeaders[0]!['x-collector-key'], 'k 1');

  // The attempt records its trace: API and the attempt log line.
  const d = await until(
    () => srv.api('GET', `/v1/tenants/${tenant}/deliveries/${delivery}`),
    (r) => r.body.attempts?.length === 1,
    { what: 'the recorded attempt' },
  );
  assert.equal(d.body.attempts[0].trace_id, p.traceId);
  assert.equal(d.body.attempts[0].request_headers.traceparent, receiver.received[0]!.headers.traceparent);
  const on = srv.logs.find((l) => String(l.msg).startsWith('tracing on'));
  assert.equal(on?.protocol, 'http/json', 'the start says tracing is on, and where spans go');
  const line = srv.logs.find((l) => l.msg === 'attempt' && l.delivery_id === delivery);
  assert.equal(line?.trace_id, p.traceId);

  // A replay is an attempt span in its event's trace: an event skipped while its endpoint was paused, replayed.
  const later = await startReceiver();
  t.after(() => later.close());
  const ep2 = await srv.api('POST', `/v1/tenants/${tenant}/endpoints`, {
    body: { url: later.url, event_types: ['order.refused'] },
  });
  assert.equal(ep2.status, 201, JSON.stringify(ep2.body));
  const paused = await srv.api('PATCH', `/v1/tenants/${tenant}/endpoints/${ep2.body.id}`, {
    body: { status: 'paused' },
  });
  assert.equal(paused.status, 200, JSON.stringify(paused.body));
  const p2 = producer();
  const skipped = await srv.api('POST', `/v1/tenants/${tenant}/events`, {
    body: { type: 'order.refused', data: { n: 2 } },
    headers: { traceparent: p2.traceparent },
  });
  assert.equal(skipped.body.deliveries[0].status, 'skipped');
  const active = await srv.api('PATCH', `/v1/tenants/${tenant}/endpoints/${ep2.body.id}`, {
    body: { status: 'active' },
  });
  assert.equal(active.status, 200, JSON.stringify(active.body));
  const replay = await srv.api('POST', `/v1/tenants/${tenant}/deliveries/${skipped.body.deliveries[0].id}/replay`);
  assert.ok(replay.status < 300 || replay.body.error?.code === 'replay_in_progress', JSON.stringify(replay.body));
  await later.waitFor(1);
  const again = incoming(later.received[0]!.headers);
  assert.equal(again.traceId, p2.traceId, "the replay continues the event's trace");
  const replayed = await otlp.span('the replay span', (s) => s.spanId === again.parentId);
  assert.equal(replayed.attributes['hookline.attempt.trigger'], 'replay');
  assert.equal(replayed.parentSpanId, p2.spanId);
  // A test send is a span of its own, with no parent.
  const sendTest = await srv.api('POST', `/v1/tenants/${tenant}/endpoints/${ep.body.id}/test`);
  assert.ok(sendTest.status < 300, JSON.stringify(sendTest.body));
  await receiver.waitFor(2);
  const testHeaders = incoming(receiver.received[1]!.headers);
  assert.notEqual(testHeaders.traceId, p.traceId, 'a test send starts its own trace');
  const testSpan = await otlp.span('the test span', (s) => s.spanId === testHeaders.parentId);
  assert.equal(testSpan.attributes['hookline.attempt.trigger'], 'test');
  assert.equal(testSpan.parentSpanId, '');
  assert.equal(sendTest.body.trace_id, testHeaders.traceId);
});

test('without OTEL_* variables tracing is off: no traceparent is sent and attempts have no trace id', async (t) => {
  const receiver = await startReceiver();
  t.after(() => receiver.close());
  const srv = await startTestServer();
  t.after(() => srv.close());
  assert.equal(srv.server.runtime.tracer, null);
  const tenant = await srv.tenant();
  const ep = await srv.api('POST', `/v1/tenants/${tenant}/endpoints`, { body: { url: receiver.url } });
  const sent = await srv.api('POST', `/v1/tenants/${tenant}/events`, {
    body: { type: 'order.created', data: { n: 1 } },
    headers: { traceparent: producer().traceparent },
  });
  assert.equal(sent.status, 202);
  await receiver.waitFor(1);
  assert.equal(receiver.received[0]!.headers.traceparent, undefined);
  const d = await until(
    () => srv.api('GET', `/v1/tenants/${tenant}/deliveries/${sent.body.deliveries[0].id}`),
    (r) => r.body.attempts?.length === 1,
  );
  assert.equal(d.body.attempts[0].trace_id, null);
  // An endpoint may not set the trace headers itself (docs/rules.md#custom-headers).
  const bad = await srv.api('PATCH', `/v1/tenants/${tenant}/endpoints/${ep.body.id}`, {
    body: { headers: { traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01` } },
  });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'invalid_header');
});

// ---- PostgreSQL, split roles ----

const given = process.env.HOOKLINE_TEST_PG_URL;
const skip =
  !given && process.env.CI !== 'true'
    ? 'HOOKLINE_TEST_PG_URL is not set (npm test starts PostgreSQL and sets it)'
    : false;

async function freshDatabase(): Promise<string> {
  assert.ok(given, 'HOOKLINE_TEST_PG_URL must be set in CI');
  const name = `hl_trace_${process.pid}_${Date.now().toString(36)}`;
  const admin = new URL(given);
  admin.pathname = '/postgres';
  const c = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    await c.query(`CREATE DATABASE ${name}`);
  } finally {
    await c.end();
  }
  const u = new URL(given);
  u.pathname = `/${name}`;
  return u.toString();
}

async function serve(
  db: string,
  role: string,
  env: Record<string, string>,
  after: (fn: () => Promise<void> | void) => void,
) {
  const p: ServeProcess = await startServe(['--db', db, '--role', role, '--allow-http', '--allow-private-targets'], {
    HOOKLINE_MASTER_KEY: Buffer.alloc(32, 9).toString('base64'),
    HOOKLINE_ADMIN_TOKEN: ADMIN_TOKEN,
    ...env,
  });
  ownChild(p.child, after);
  after(async () => {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
    await within('hookline serve to stop', 20_000, p.exited);
  });
  return p;
}

test('PostgreSQL, api + worker processes, OTLP/protobuf: the context crosses from the api to the worker with the event', {
  skip,
  // Two `hookline serve` processes start and stop (a few seconds each on a shared machine).
  timeout: 90_000,
}, async (t) => {
  const db = await freshDatabase();
  const otlp = await startOtlpReceiver();
  t.after(() => otlp.close());
  const receiver = await startReceiver();
  t.after(() => receiver.close());
  const env = {
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${otlp.endpoint}/v1/traces`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_BSP_SCHEDULE_DELAY: '20',
  };
  const api = await serve(db, 'api', env, t.after.bind(t));
  await serve(db, 'worker', env, t.after.bind(t));
  const call = serveApi(() => api, ADMIN_TOKEN);
  const ten = await call('POST', '/v1/tenants', { name: 'traced' });
  const ep = await call('POST', `/v1/tenants/${ten.body.id}/endpoints`, { url: `${receiver.url}?token=s3cret` });
  assert.equal(ep.status, 201, JSON.stringify(ep.body));
  const p = producer();
  // A batch: the request's traceparent is the item's.
  const res = await fetch(`${api.url}/v1/tenants/${ten.body.id}/events/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', traceparent: p.traceparent },
    body: JSON.stringify({ events: [{ type: 'order.created', data: { n: 1 } }] }),
  });
  const batch = (await res.json()) as any;
  assert.equal(res.status, 202, JSON.stringify(batch));
  const delivery = batch.results[0].deliveries[0].id as string;
  await receiver.waitFor(1);
  const got = incoming(receiver.received[0]!.headers);
  assert.equal(got.traceId, p.traceId, 'the receiver continues the producer trace');
  const attempt = await otlp.span('the worker’s attempt span', (s) => s.spanId === got.parentId);
  assertAttemptSpan(attempt, p, { endpoint: ep.body.id, delivery });
  assert.equal(attempt.resource['hookline.role'], 'worker');
  const accept = await otlp.span('the api’s accept span', (s) => s.kind === SERVER && s.traceId === p.traceId);
  assert.equal(accept.parentSpanId, p.spanId);
  assert.equal(accept.resource['hookline.role'], 'api');
  assert.ok(otlp.contentTypes.length > 0 && otlp.contentTypes.every((c) => c === 'application/x-protobuf'));
  const d = await until(
    () => call('GET', `/v1/tenants/${ten.body.id}/deliveries/${delivery}`),
    (r) => r.body.attempts?.length === 1,
    { what: 'the recorded attempt' },
  );
  assert.equal(d.body.attempts[0].trace_id, p.traceId);
});
