// Row ↔ record mapping of deliveries and attempts. A delivery read for the API goes through the queue's lease view
// (lease-view.ts), which maps the row with deliveryFromRow and shows an in-flight delivery as delivering.
import type { Attempt, Delivery } from '../../domain.ts';
import type { TraceContext } from '../../tracing/trace-context.ts';
import { json, num, numOrNull, type Row } from '../row-values.ts';

/** A claimed row's event trace context (`ev_traceparent`, `ev_tracestate` joined from events). */
export function claimedTrace(r: Row): TraceContext | null {
  return r.ev_traceparent ? { traceparent: r.ev_traceparent, tracestate: r.ev_tracestate ?? null } : null;
}

/** The latest attempt's answer a list reads beside each delivery; null when it has none (or no attempt yet). */
function lastResponseFromRow(r: Row): Delivery['lastResponse'] {
  const status = numOrNull(r.last_response_status);
  const excerpt = r.last_response_excerpt ?? null;
  const error = r.last_error_message ?? null;
  return status === null && excerpt === null && error === null ? null : { status, excerpt, error };
}

/** Needs `ev_event_id` and `ev_type` joined from events. */
export function deliveryFromRow(r: Row): Delivery {
  const d: Delivery = {
    id: r.id,
    tenantId: r.tenant_id,
    eventPk: r.event_pk,
    eventId: r.ev_event_id,
    eventType: r.ev_type,
    endpointId: r.endpoint_id,
    status: r.status,
    ladder: r.ladder,
    isMoney: Boolean(num(r.is_money)),
    attemptCount: num(r.attempt_count),
    fastFailures: num(r.fast_failures),
    slowFailures: num(r.slow_failures),
    slowStartedAt: numOrNull(r.slow_started_at),
    firstAttemptAt: numOrNull(r.first_attempt_at),
    lastAttemptAt: numOrNull(r.last_attempt_at),
    nextAttemptAt: numOrNull(r.next_attempt_at),
    leaseUntil: numOrNull(r.lease_until),
    terminalReason: r.terminal_reason ?? null,
    orderingKey: r.ordering_key ?? null,
    orderingSeq: numOrNull(r.ordering_seq),
    dismissedAt: numOrNull(r.dismissed_at),
    heldSince: numOrNull(r.held_since),
    heldUntil: numOrNull(r.held_until),
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
  };
  // Set only when the row has it (lists join the last attempt; a claim does not): no spread per row on the claim path.
  if ('last_response_status' in r) d.lastResponse = lastResponseFromRow(r);
  return d;
}

export function attemptFromRow(r: Row): Attempt {
  return {
    id: r.id,
    deliveryId: r.delivery_id,
    tenantId: r.tenant_id,
    environment: r.environment,
    endpointId: r.endpoint_id,
    n: num(r.n),
    trigger: r.trigger,
    ladder: r.ladder ?? null,
    startedAt: num(r.started_at),
    durationMs: num(r.duration_ms),
    requestHeaders: json(r.request_headers, {}),
    responseStatus: numOrNull(r.response_status),
    responseHeaders: json(r.response_headers, null),
    responseExcerpt: r.response_excerpt ?? null,
    errorClass: r.error_class ?? null,
    errorMessage: r.error_message ?? null,
    outcome: r.outcome,
    traceId: r.trace_id ?? null,
    heldFrom: numOrNull(r.held_from),
    heldUntil: numOrNull(r.held_until),
  };
}

export function attemptToRow(a: Attempt): Row {
  return {
    id: a.id,
    delivery_id: a.deliveryId,
    tenant_id: a.tenantId,
    endpoint_id: a.endpointId,
    n: a.n,
    trigger: a.trigger,
    ladder: a.ladder,
    started_at: a.startedAt,
    duration_ms: a.durationMs,
    request_headers: JSON.stringify(a.requestHeaders),
    response_status: a.responseStatus,
    response_headers: a.responseHeaders === null ? null : JSON.stringify(a.responseHeaders),
    response_excerpt: a.responseExcerpt,
    error_class: a.errorClass,
    error_message: a.errorMessage,
    outcome: a.outcome,
    trace_id: a.traceId ?? null,
  };
}
