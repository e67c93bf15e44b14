// Attempt spans through the engine on a virtual clock (docs/rules.md#attempt-trace): the "an hour after the accept"
// rule counted from the accept, not from the last attempt; what each span carries (attributes, status, the next
// state); replays, test sends; and the traceparent the receiver gets naming the attempt's own span.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { BRIEF } from '../src/policy/presets.ts';
import { PolicyRegistry } from '../src/policy/registry.ts';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';
import { type RecordedSpan, recordingTracer } from '../testing/recording-tracer.ts';
import { settle } from '../testing/settle.ts';
import { DAY, MIN } from '../testing/time.ts';

const T = '4bf92f3577b34da6a3ce929d0e0e4736';
const P = '00f067aa0ba902b7';
const PRODUCER = `00-${T}-${P}-01`;

/** A retry every 30 minutes, five attempts, no jitter: the last attempt is never an hour after the one before it. */
const HALF_HOURLY = {
  ...BRIEF,
  name: 'half-hourly',
  jitter: 0,
  fast: { delaysMs: [30 * MIN, 30 * MIN, 30 * MIN, 30 * MIN] },
};

async function tracedEngine() {
  const rec = recordingTracer();
  const t = await testEngine({ tracer: rec.tracer, policies: new PolicyRegistry([HALF_HOURLY]) });
  return { ...t, spans: rec.spans };
}

/** The receiver's traceparent, split into its trace id and parent (the attempt's span). */
function sentParent(headers: Record<string, string | string[] | undefined>): { traceId: string; parentId: string } {
  const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(headers.traceparent));
  assert.ok(m, `a sampled version-00 traceparent: ${headers.traceparent}`);
  return { traceId: m[1]!, parentId: m[2]! };
}

const shape = (s: RecordedSpan) => ({
  parent: s.parentSpanId,
  trace: s.traceId === T ? 'producer' : 'own',
  links: s.links.map((l) => `${l.context.traceId}/${l.context.spanId}`),
});

test('a delivery retried every 30 minutes leaves the producer trace once the accept is an hour old, linked to it', async () => {
  const t = await tracedEngine();
  const rx = await startReceiver(() => 500, { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'half-hourly' });
    const accepted = t.clock.now();
    const r = await t.engine.events.accept(t.tenantId, { type: 'a.b', data: {}, traceparent: PRODUCER });
    await settle(t.engine, t.clock);
    assert.deepEqual(
      rx.received.map((x) => (x.at - accepted) / MIN),
      [0, 30, 60, 90, 120],
      'attempts half an hour apart',
    );
    // 0 and 30 min after the accept: children of the producer's span. From 60 min on: own traces, each linked back,
    // although each of them starts only 30 min after the attempt before it.
    const child = { parent: P, trace: 'producer', links: [] };
    const linked = { parent: null, trace: 'own', links: [`${T}/${P}`] };
    assert.deepEqual(t.spans.map(shape), [child, child, linked, linked, linked]);
    // The receiver is told each attempt's own span, in whichever trace it is.
    rx.received.forEach((x, i) => {
      assert.deepEqual(sentParent(x.headers), { traceId: t.spans[i]!.traceId, parentId: t.spans[i]!.spanId });
    });
    const { attempts } = await t.engine.deliveries.detail(t.tenantId, r.deliveries[0].id);
    assert.deepEqual(
      attempts.map((a) => a.traceId),
      t.spans.map((s) => s.traceId),
      'each attempt records the trace it was in',
    );
  } finally {
    await rx.close();
    await t.close();
  }
});

test("an attempt span carries the HTTP conventions, Hookline's ids and the delivery's next state; a failure is an ERROR", async () => {
  const t = await tracedEngine();
  const rx = await startReceiver((n) => [503, 400][n - 1] ?? 200, { clock: t.clock });
  try {
    const url = `${rx.url.replace('127.0.0.1', 'user:pw@127.0.0.1')}?token=s3cret&x=1`;
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url, policy: 'brief' });
    const r = await t.engine.events.accept(t.tenantId, {
      type: 'a.b',
      data: {},
      traceparent: PRODUCER,
      tracestate: 'vendor=abc',
    });
    await settle(t.engine, t.clock);
    assert.equal(t.spans.length, 3);
    const port = Number(new URL(rx.url).port);
    const ids = {
      'hookline.tenant.id': t.tenantId,
      'hookline.event.id': r.event.eventId,
      'hookline.endpoint.id': endpoint.id,
      'hookline.delivery.id': r.deliveries[0].id,
      'hookline.attempt.trigger': 'scheduled',
      'hookline.attempt.ladder': 'fast',
    };
    const common = {
      'http.request.method': 'POST',
      'url.full': `http://127.0.0.1:${port}/hook?token=REDACTED&x=REDACTED`,
      'server.address': '127.0.0.1',
      'server.port': port,
      ...ids,
    };
    const [failed, refused, ok] = t.spans;
    const { 'hookline.attempt.duration_ms': d1, ...failedAttrs } = failed!.attributes;
    const { 'hookline.attempt.duration_ms': d2, ...refusedAttrs } = refused!.attributes;
    const { 'hookline.attempt.duration_ms': d3, ...okAttrs } = ok!.attributes;
    assert.ok(
      [d1, d2, d3].every((d) => typeof d === 'number'),
      'the duration is recorded',
    );
    assert.deepEqual(failedAttrs, {
      ...common,
      'hookline.attempt.number': 1,
      'http.response.status_code': 503,
      'hookline.attempt.outcome': 'delivery_failure',
      'hookline.delivery.next': 'pending',
      'error.type': '503',
    });
    assert.deepEqual(failed!.status, { code: SpanStatusCode.ERROR, message: 'HTTP 503' });
    // A client error is a failed attempt too.
    assert.deepEqual(refusedAttrs, {
      ...common,
      'hookline.attempt.number': 2,
      'http.response.status_code': 400,
      'hookline.attempt.outcome': 'client_error',
      'hookline.delivery.next': 'pending',
      'error.type': '400',
    });
    assert.equal(refused!.status?.code, SpanStatusCode.ERROR);
    assert.deepEqual(okAttrs, {
      ...common,
      'hookline.attempt.number': 3,
      'http.response.status_code': 200,
      'hookline.attempt.outcome': 'success',
      'hookline.delivery.next': 'succeeded',
    });
    assert.equal(ok!.status, null, 'a success sets no status');
    for (const s of t.spans) {
      assert.deepEqual([s.name, s.kind, s.ended], ['POST', SpanKind.CLIENT, true]);
      assert.deepEqual([s.parentSpanId, s.parentIsRemote], [P, true], "a child of the producer's (remote) span");
      assert.ok(!JSON.stringify(s).includes('s3cret') && !JSON.stringify(s).includes('pw@'), 'no credentials');
    }
    for (const x of rx.received) assert.equal(x.headers.tracestate, 'vendor=abc', 'tracestate travels on');
  } finally {
    await rx.close();
    await t.close();
  }
});

test('a replay days later is a trace of its own linked to the event; a test send has no parent; no context, no parent', async () => {
  const t = await tracedEngine();
  let answer = 500;
  const rx = await startReceiver(() => answer, { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'half-hourly' });
    const r = await t.engine.events.accept(t.tenantId, { type: 'a.b', data: {}, traceparent: PRODUCER });
    await settle(t.engine, t.clock);
    const failedSpans = t.spans.length;
    t.clock.advance(2 * DAY);
    answer = 200;
    await t.engine.replays.delivery(t.tenantId, r.deliveries[0].id);
    await settle(t.engine, t.clock);
    const replay = t.spans[failedSpans]!;
    assert.deepEqual(shape(replay), { parent: null, trace: 'own', links: [`${T}/${P}`] });
    assert.equal(replay.attributes['hookline.attempt.trigger'], 'replay');

    const sent = await t.engine.endpoints.test(t.tenantId, endpoint.id);
    const testSpan = t.spans.at(-1)!;
    assert.deepEqual(
      [testSpan.parentSpanId, testSpan.links, testSpan.attributes['hookline.attempt.trigger']],
      [null, [], 'test'],
    );
    assert.equal(sent.traceId, testSpan.traceId, 'the test attempt records its trace');
    assert.equal('hookline.delivery.next' in testSpan.attributes, false, 'a test send has no next state');

    // An event accepted without a context: its attempt starts a trace, with nothing to link to.
    const bare = await t.engine.events.accept(t.tenantId, { type: 'a.b', data: {} });
    await settle(t.engine, t.clock);
    const own = t.spans.find((s) => s.attributes['hookline.delivery.id'] === bare.deliveries[0].id)!;
    assert.deepEqual([own.parentSpanId, own.links], [null, []]);
  } finally {
    await rx.close();
    await t.close();
  }
});

test('an attempt with no answer has no status code and names what failed; an unsampled producer stays unsampled', async () => {
  const t = await tracedEngine();
  const rx = await startReceiver(() => 200, { clock: t.clock });
  try {
    // Port 1 on loopback: refused at once.
    await t.engine.endpoints.create(t.tenantId, {
      url: 'http://127.0.0.1:1/hook',
      policy: 'half-hourly',
      event_types: ['down'],
    });
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, event_types: ['up'] });
    await t.engine.events.accept(t.tenantId, { type: 'down', data: {}, traceparent: PRODUCER });
    await t.engine.runDue();
    const [refused] = t.spans;
    assert.equal(refused!.attributes['server.port'], 1);
    assert.equal('http.response.status_code' in refused!.attributes, false, 'no response, no status code');
    assert.equal(refused!.attributes['error.type'], 'connection');
    assert.equal(refused!.status?.code, SpanStatusCode.ERROR);

    // Flags 00: the producer did not sample; the receiver is told the attempt is not sampled either.
    await t.engine.events.accept(t.tenantId, { type: 'up', data: {}, traceparent: `00-${T}-${P}-00` });
    await t.engine.runDue();
    await rx.waitFor(1);
    assert.match(String(rx.received[0]!.headers.traceparent), new RegExp(`^00-${T}-[0-9a-f]{16}-00$`));
  } finally {
    await rx.close();
    await t.close();
  }
});
