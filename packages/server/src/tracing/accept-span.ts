// The accept of events as a server span (docs/observability.md#traces): a child of the producer's traceparent, and
// the context each accepted event stores for its attempts to continue.
import { formatTraceparent, type TraceContext, traceContextOf } from '@hookline/core';
import {
  type Attributes,
  createTraceState,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';

export interface AcceptTrace {
  /** What an event without a context of its own stores: the producer's, else this span's; null: none. */
  readonly context: TraceContext | null;
  /** false when tracing is off: there is no span to end. */
  readonly live: boolean;
  /** Ends the span with the answer's status code. */
  end(status: number): void;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

/** The producer's context from the request, and the accept span when there is a tracer. */
export function startAcceptSpan(
  tracer: Tracer | null,
  headers: Record<string, string | string[] | undefined>,
  route: string,
  attributes: Attributes,
): AcceptTrace {
  const producer = traceContextOf(header(headers, 'traceparent'), header(headers, 'tracestate'));
  if (tracer === null) return { context: producer, live: false, end: () => {} };
  let parent = ROOT_CONTEXT;
  if (producer !== null) {
    const [, traceId, spanId, flags] = producer.traceparent.split('-');
    parent = trace.setSpanContext(ROOT_CONTEXT, {
      traceId,
      spanId,
      traceFlags: Number.parseInt(flags, 16) & 1,
      isRemote: true,
      ...(producer.tracestate ? { traceState: createTraceState(producer.tracestate) } : {}),
    });
  }
  const span: Span = tracer.startSpan(
    `POST ${route}`,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'POST', 'http.route': route, ...attributes } },
    parent,
  );
  const sc = span.spanContext();
  const own = {
    traceparent: formatTraceparent(sc.traceId, sc.spanId, sc.traceFlags),
    tracestate: producer?.tracestate ?? null,
  };
  return {
    context: producer ?? own,
    live: true,
    end(status) {
      span.setAttribute('http.response.status_code', status);
      if (status >= 400) span.setAttribute('error.type', String(status));
      // A 4xx is the client's error, not the server's (HTTP semantic conventions for server spans).
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}

/** The input with the request's context unless it carries a valid one of its own (a batch item may). */
export function withTraceContext<T extends { traceparent?: string; tracestate?: string }>(
  input: T,
  context: TraceContext | null,
): T {
  if (context === null || traceContextOf(input.traceparent, input.tracestate) !== null) return input;
  return { ...input, traceparent: context.traceparent, tracestate: context.tracestate ?? undefined };
}

/** Ends the accept's span once the answer has gone out (or the connection closed), with its status code. */
export function endWithAnswer(t: AcceptTrace, reply: { statusCode: number; raw: NodeJS.EventEmitter }): void {
  if (t.live) reply.raw.once('close', () => t.end(reply.statusCode));
}
