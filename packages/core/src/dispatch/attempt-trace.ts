// The span of a claimed delivery's attempt (docs/observability.md#traces), and its trace headers on the request.
import type { Tracer } from '@opentelemetry/api';
import type { AttemptTrigger } from '../domain.ts';
import type { ClaimedDelivery } from '../store/store.ts';
import { type AttemptSpan, startAttemptSpan } from '../tracing/attempt-span.ts';

/** Starts the attempt's span and puts its traceparent on `headers`, above any header of the same name. */
export function traceAttempt(
  tracer: Tracer,
  c: ClaimedDelivery,
  trigger: AttemptTrigger,
  headers: Record<string, string>,
  now: number,
): AttemptSpan {
  const d = c.delivery;
  const span = startAttemptSpan(tracer, {
    url: c.endpoint.url,
    endpointId: c.endpoint.id,
    deliveryId: d.id,
    eventId: d.eventId,
    tenantId: d.tenantId,
    n: d.attemptCount + 1,
    trigger,
    ladder: d.ladder,
    parent: c.trace ?? null,
    acceptedAt: d.createdAt,
    now,
  });
  setTraceHeaders(headers, span.headers);
  return span;
}

/** The span's trace headers replace any of the same name in any case: the receiver must see this span as its parent. */
export function setTraceHeaders(headers: Record<string, string>, trace: Readonly<Record<string, string>>): void {
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'traceparent' || lower === 'tracestate') delete headers[name];
  }
  Object.assign(headers, trace);
}
