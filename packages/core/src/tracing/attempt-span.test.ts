import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Span, type SpanOptions, type Tracer, trace } from '@opentelemetry/api';
import { LINK_AFTER_MS, spanUrl, startAttemptSpan } from './attempt-span.ts';

const T = '4bf92f3577b34da6a3ce929d0e0e4736';
const P = '00f067aa0ba902b7';

/** A tracer that records what it was asked for and makes spans with fixed ids. */
function recordingTracer() {
  const started: Array<{ options: SpanOptions; parentSpanId: string | undefined; traceId: string | undefined }> = [];
  const tracer = {
    startSpan(_name: string, options: SpanOptions = {}, ctx) {
      const parent = ctx ? trace.getSpanContext(ctx) : undefined;
      const root = options.root || !parent;
      started.push({ options, parentSpanId: root ? undefined : parent?.spanId, traceId: parent?.traceId });
      const spanContext = { traceId: root ? 'f'.repeat(32) : parent!.traceId, spanId: 'a'.repeat(16), traceFlags: 1 };
      return trace.wrapSpanContext(spanContext) as Span;
    },
  } as Tracer;
  return { tracer, started };
}

const input = {
  url: 'https://user:pw@hooks.example/in?token=abc&x=1',
  endpointId: 'ep_1',
  deliveryId: 'dlv_1',
  eventId: 'e-1',
  tenantId: 'ten_1',
  n: 2,
  trigger: 'scheduled' as const,
  ladder: 'fast',
  parent: { traceparent: `00-${T}-${P}-01`, tracestate: 'v=1' },
  acceptedAt: 1_000,
  now: 2_000,
};

test('an attempt is a child of the stored context, and its request carries its own span as the parent', () => {
  const { tracer, started } = recordingTracer();
  const span = startAttemptSpan(tracer, input);
  assert.equal(started[0]!.parentSpanId, P);
  assert.equal(span.traceId, T);
  assert.equal(span.headers.traceparent, `00-${T}-${'a'.repeat(16)}-01`);
  assert.equal(started[0]!.options.attributes?.['url.full'], 'https://hooks.example/in?token=REDACTED&x=REDACTED');
});

test('an attempt an hour or more after the accept starts its own trace, linked to the stored context', () => {
  const { tracer, started } = recordingTracer();
  const span = startAttemptSpan(tracer, { ...input, now: input.acceptedAt + LINK_AFTER_MS });
  assert.equal(started[0]!.parentSpanId, undefined);
  assert.equal(started[0]!.options.links?.[0]?.context.spanId, P);
  assert.equal(span.traceId, 'f'.repeat(32));
  assert.equal(spanUrl('not a url'), 'invalid-url');
});

test('the server attributes name the host and the port, 443 or 80 by scheme when the URL has none', () => {
  const at = (url: string) => {
    const { tracer, started } = recordingTracer();
    startAttemptSpan(tracer, { ...input, url });
    const a = started[0]!.options.attributes!;
    return [a['server.address'], a['server.port']];
  };
  assert.deepEqual(at('https://hooks.example/in'), ['hooks.example', 443]);
  assert.deepEqual(at('http://hooks.example/in'), ['hooks.example', 80]);
  assert.deepEqual(at('https://hooks.example:8443/in'), ['hooks.example', 8443]);
  assert.deepEqual(at('not a url'), [undefined, undefined]);
});

test('without a tracestate only the traceparent is sent; a stored context that does not parse starts a trace', () => {
  const { tracer, started } = recordingTracer();
  const span = startAttemptSpan(tracer, { ...input, parent: { traceparent: `00-${T}-${P}-01`, tracestate: null } });
  assert.deepEqual(Object.keys(span.headers), ['traceparent']);
  const bad = startAttemptSpan(tracer, { ...input, parent: { traceparent: 'garbage', tracestate: null } });
  assert.deepEqual(
    [started[1]!.parentSpanId, started[1]!.options.links, bad.traceId],
    [undefined, undefined, 'f'.repeat(32)],
  );
});
