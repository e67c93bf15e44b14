// One attempt of a delivery as the API answers it (a delivery's detail, an endpoint's test send), and its JSON Schema.
import { ATTEMPT_TRIGGERS, type Attempt, OUTCOME_CLASSES } from '@hookline/core';
import { named } from '../../http/schema-names.ts';
import {
  environment,
  int,
  iso,
  nullableInt,
  nullableStr,
  nullableTime,
  obj,
  str,
  stringMap,
  time,
} from '../../http/views.ts';

export const AttemptSchema = named(
  'Attempt',
  obj({
    id: str,
    environment,
    delivery_id: str,
    endpoint_id: str,
    n: int,
    trigger: { type: 'string', enum: [...ATTEMPT_TRIGGERS] },
    ladder: {
      ...nullableStr,
      description:
        "The ladder that scheduled this attempt (the delivery's when it was claimed: fast for a first attempt); null for attempts recorded before Hookline kept it.",
    },
    started_at: time,
    duration_ms: { type: 'number' },
    outcome: { type: 'string', enum: [...OUTCOME_CLASSES] },
    request_headers: stringMap,
    response_status: nullableInt,
    response_headers: { type: ['object', 'null'], additionalProperties: { type: 'string' } },
    response_body_excerpt: { ...nullableStr, description: 'The first few KB of the response body.' },
    error_class: {
      ...nullableStr,
      description:
        'timeout, connection, dns, tls, status, refused_address, body_too_large; the egress proxy: proxy_unreachable, proxy_refused, proxy_auth_failed',
    },
    error_message: nullableStr,
    trace_id: {
      ...nullableStr,
      description:
        "The trace this attempt's span is in (32 hex digits; docs/observability.md#traces): the producer's trace when it sent a traceparent. null when tracing was off.",
    },
    held_from: {
      ...nullableTime,
      description: "Start of the held period (breaker open) that ended with this attempt: the delivery's first hold.",
    },
    held_until: {
      ...nullableTime,
      description: 'End of that held period: the breaker closed or was reset, or this attempt was its probe.',
    },
  }),
);
export const attemptView = (a: Attempt) => ({
  id: a.id,
  environment: a.environment,
  delivery_id: a.deliveryId,
  endpoint_id: a.endpointId,
  n: a.n,
  trigger: a.trigger,
  ladder: a.ladder,
  started_at: iso(a.startedAt),
  duration_ms: a.durationMs,
  outcome: a.outcome,
  request_headers: a.requestHeaders,
  response_status: a.responseStatus,
  response_headers: a.responseHeaders,
  response_body_excerpt: a.responseExcerpt,
  error_class: a.errorClass,
  error_message: a.errorMessage,
  trace_id: a.traceId ?? null,
  held_from: iso(a.heldFrom),
  held_until: iso(a.heldUntil),
});
