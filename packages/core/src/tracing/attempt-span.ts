// One attempt as an OpenTelemetry client span (docs/observability.md#traces): a child of the event's stored context
// (a link when the attempt runs long after it), and the traceparent that lets the receiver continue it.
import {
  type Attributes,
  createTraceState,
  ROOT_CONTEXT,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { AttemptTrigger } from '../domain.ts';
import type { SendResult } from '../http/sender.ts';
import { formatTraceparent, parseTraceparent, type TraceContext } from './trace-context.ts';

/** An attempt this long after its event starts a trace of its own, linked to the event's (docs/observability.md#traces). */
export const LINK_AFTER_MS = 3_600_000;

export interface AttemptSpanInput {
  url: string;
  endpointId: string;
  deliveryId: string;
  eventId: string;
  tenantId: string;
  n: number;
  trigger: AttemptTrigger;
  ladder: string | null;
  /** The event's stored context; null: the attempt starts a trace. */
  parent: TraceContext | null;
  /** When the event was accepted, and when this attempt starts (the engine's clock). */
  acceptedAt: number;
  now: number;
}

export interface AttemptSpan {
  /** `traceparent` (and `tracestate`) naming this span: sent on the attempt's request. */
  readonly headers: Record<string, string>;
  readonly traceId: string;
  /** Ends the span with the send's result; `next` is the delivery's next status (absent for a test delivery). */
  end(result: SendResult, next?: string): void;
}

/** The endpoint URL without credentials and with every query value replaced: a span must not carry secrets. */
export function spanUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    for (const key of new Set(u.searchParams.keys())) u.searchParams.set(key, 'REDACTED');
    return u.toString();
  } catch {
    return 'invalid-url';
  }
}

function remoteContext(parent: TraceContext): SpanContext | null {
  const p = parseTraceparent(parent.traceparent);
  if (p === null) return null;
  return {
    traceId: p.traceId,
    spanId: p.spanId,
    traceFlags: p.flags & 1,
    isRemote: true,
    ...(parent.tracestate ? { traceState: createTraceState(parent.tracestate) } : {}),
  };
}

/** Starts the attempt's client span. The caller sends `headers` with the request and calls end() with its result. */
export function startAttemptSpan(tracer: Tracer, a: AttemptSpanInput): AttemptSpan {
  const remote = a.parent === null ? null : remoteContext(a.parent);
  const late = remote !== null && a.now - a.acceptedAt >= LINK_AFTER_MS;
  let server: { address: string; port: number } | null = null;
  try {
    const u = new URL(a.url);
    server = { address: u.hostname, port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)) };
  } catch {
    // an invalid URL is refused by the sender; the span says so through its outcome
  }
  const attributes: Attributes = {
    'http.request.method': 'POST',
    'url.full': spanUrl(a.url),
    ...(server ? { 'server.address': server.address, 'server.port': server.port } : {}),
    'hookline.tenant.id': a.tenantId,
    'hookline.event.id': a.eventId,
    'hookline.endpoint.id': a.endpointId,
    'hookline.delivery.id': a.deliveryId,
    'hookline.attempt.number': a.n,
    'hookline.attempt.trigger': a.trigger,
    ...(a.ladder ? { 'hookline.attempt.ladder': a.ladder } : {}),
  };
  const span = tracer.startSpan(
    'POST',
    {
      kind: SpanKind.CLIENT,
      attributes,
      // Long after the accept (a retry hours later) the attempt is a trace of its own that points back at the event's.
      ...(late && remote ? { root: true, links: [{ context: remote }] } : {}),
    },
    remote !== null && !late ? trace.setSpanContext(ROOT_CONTEXT, remote) : ROOT_CONTEXT,
  );
  const sc = span.spanContext();
  const headers: Record<string, string> = { traceparent: formatTraceparent(sc.traceId, sc.spanId, sc.traceFlags) };
  const state = sc.traceState?.serialize();
  if (state) headers.tracestate = state;
  return {
    headers,
    traceId: sc.traceId,
    end(result, next) {
      if (result.status !== null) span.setAttribute('http.response.status_code', result.status);
      span.setAttribute('hookline.attempt.outcome', result.outcome);
      span.setAttribute('hookline.attempt.duration_ms', result.durationMs);
      if (next !== undefined) span.setAttribute('hookline.delivery.next', next);
      if (result.outcome !== 'success') {
        // HTTP semantic conventions: error.type is the status code, or what failed before a response.
        span.setAttribute(
          'error.type',
          result.errorClass === 'status' ? String(result.status) : (result.errorClass ?? 'other'),
        );
        span.setStatus({
          code: SpanStatusCode.ERROR,
          ...(result.errorMessage ? { message: result.errorMessage } : {}),
        });
      }
      span.end();
    },
  };
}
