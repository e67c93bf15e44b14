// Row ↔ record mapping shared by every SQL store: both dialects use the same column names.
import {
  type Attempt,
  DEFAULT_ENVIRONMENT,
  type Delivery,
  type Endpoint,
  type EventRecord,
  type Tenant,
  type TenantLimits,
} from '../domain.ts';
import type { TraceContext } from '../tracing/trace-context.ts';
import type { FailureSummaryState } from './failure-summary.ts';
import type {
  ApiKeyRecord,
  BreakerRow,
  EventTypeRow,
  NewEvent,
  NewTenant,
  Notice,
  OutboxEntry,
  OutboxRow,
  ReplayRow,
  SealedSecret,
} from './store.ts';

type Row = Record<string, any>;

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : num(v));
const json = <T>(v: unknown, fallback: T): T => {
  if (v === null || v === undefined) return fallback;
  return (typeof v === 'string' ? JSON.parse(v) : v) as T;
};

export function tenantFromRow(r: Row): Tenant {
  return {
    id: r.id,
    name: r.name,
    environment: r.environment,
    ownerEmails: json(r.owner_emails, []),
    operationsEndpointId: r.operations_endpoint_id ?? null,
    notifyEmail: Boolean(num(r.notify_email)),
    uid: r.uid ?? null,
    metadata: json(r.metadata, {}),
    payloadFormat: r.payload_format ?? 'envelope',
    appRateLimit: numOrNull(r.app_rate_limit ?? null),
    limits: {
      eventsPerS: numOrNull(r.events_per_s),
      eventsPerDay: numOrNull(r.events_per_day),
      maxEndpoints: numOrNull(r.max_endpoints),
      maxPayloadBytes: numOrNull(r.max_payload_bytes),
    },
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
  };
}

/** The latest attempt's answer a list reads beside each delivery; null when it has none (or no attempt yet). */
function lastResponseFromRow(r: Row): Delivery['lastResponse'] {
  const status = numOrNull(r.last_response_status);
  const excerpt = r.last_response_excerpt ?? null;
  const error = r.last_error_message ?? null;
  return status === null && excerpt === null && error === null ? null : { status, excerpt, error };
}

export function tenantToRow(t: NewTenant): Row {
  return {
    id: t.id,
    name: t.name,
    environment: t.environment ?? DEFAULT_ENVIRONMENT,
    owner_emails: JSON.stringify(t.ownerEmails),
    operations_endpoint_id: t.operationsEndpointId,
    notify_email: t.notifyEmail ? 1 : 0,
    uid: t.uid ?? null,
    metadata: t.metadata && Object.keys(t.metadata).length ? JSON.stringify(t.metadata) : null,
    payload_format: t.payloadFormat ?? 'envelope',
    app_rate_limit: t.appRateLimit ?? null,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
  };
}

export function tenantLimitsToRow(l: TenantLimits): Row {
  return {
    events_per_s: l.eventsPerS,
    events_per_day: l.eventsPerDay,
    max_endpoints: l.maxEndpoints,
    max_payload_bytes: l.maxPayloadBytes,
  };
}

export function apiKeyFromRow(r: Row): ApiKeyRecord {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    name: r.name,
    prefix: r.prefix,
    hash: r.hash,
    createdAt: num(r.created_at),
    lastUsedAt: numOrNull(r.last_used_at),
    revokedAt: numOrNull(r.revoked_at),
  };
}

export function apiKeyToRow(k: ApiKeyRecord): Row {
  return {
    id: k.id,
    tenant_id: k.tenantId,
    name: k.name,
    prefix: k.prefix,
    hash: k.hash,
    created_at: k.createdAt,
    last_used_at: k.lastUsedAt,
    revoked_at: k.revokedAt,
  };
}

/** `prefix` reads the endpoint from aliased columns (`e_url` …) in joined rows. */
export function endpointFromRow(r: Row, prefix = ''): Endpoint & { version: number } {
  const c = (k: string) => r[prefix + k];
  return {
    id: prefix ? r.endpoint_id : r.id,
    tenantId: c('tenant_id'),
    url: c('url'),
    description: c('description'),
    eventTypes: json(c('event_types'), []),
    policy: c('policy'),
    scheme: c('scheme'),
    timeoutMs: numOrNull(c('timeout_ms')),
    maxConcurrency: num(c('max_concurrency')),
    ordering: c('ordering') ?? 'none',
    orderingOnFailure: c('ordering_on_failure') ?? 'continue',
    payloadFilter: json(c('payload_filter'), null),
    customHeaders: json(c('custom_headers'), {}),
    pausedAt: numOrNull(c('paused_at')),
    signing: c('signing') ?? 'hmac',
    rateLimitPerS: numOrNull(c('rate_limit_per_s') ?? null),
    effectiveConcurrency: numOrNull(c('effective_concurrency') ?? null),
    uid: c('uid') ?? null,
    metadata: json(c('metadata'), {}),
    channels: json(c('channels'), null),
    status: c('status'),
    pauseReason: c('pause_reason') ?? null,
    failingSince: numOrNull(c('failing_since')),
    consecutiveFailedEvents: num(c('consecutive_failed_events')),
    lastSuccessAt: numOrNull(c('last_success_at')),
    version: num(c('version')),
    createdAt: num(c('created_at')),
    updatedAt: num(c('updated_at')),
  };
}

/** The columns of set-endpoint-options.sql (migration 010's filter and headers). */
export function endpointOptionsToRow(e: Endpoint): Row {
  return {
    id: e.id,
    payload_filter: e.payloadFilter ? JSON.stringify(e.payloadFilter) : null,
    custom_headers: JSON.stringify(e.customHeaders ?? {}),
  };
}

export function endpointToRow(e: Endpoint): Row {
  return {
    id: e.id,
    tenant_id: e.tenantId,
    url: e.url,
    description: e.description,
    event_types: JSON.stringify(e.eventTypes),
    policy: e.policy,
    scheme: e.scheme,
    timeout_ms: e.timeoutMs,
    max_concurrency: e.maxConcurrency,
    ordering: e.ordering ?? 'none',
    ordering_on_failure: e.orderingOnFailure ?? 'continue',
    signing: e.signing ?? 'hmac',
    rate_limit_per_s: e.rateLimitPerS ?? null,
    uid: e.uid ?? null,
    metadata: e.metadata && Object.keys(e.metadata).length ? JSON.stringify(e.metadata) : null,
    channels: e.channels?.length ? JSON.stringify(e.channels) : null,
    status: e.status,
    pause_reason: e.pauseReason,
    failing_since: e.failingSince,
    consecutive_failed_events: e.consecutiveFailedEvents,
    last_success_at: e.lastSuccessAt,
    created_at: e.createdAt,
    updated_at: e.updatedAt,
  };
}

export function secretFromRow(r: Row): SealedSecret {
  return {
    kid: r.kid,
    endpointId: r.endpoint_id,
    sealed: r.sealed,
    createdAt: num(r.created_at),
    expiresAt: numOrNull(r.expires_at),
  };
}

export function eventFromRow(r: Row): EventRecord {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    eventId: r.event_id,
    type: r.type,
    version: r.version,
    occurredAt: r.occurred_at,
    body: Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body),
    payloadFormat: r.payload_format ?? 'envelope',
    isMoney: Boolean(num(r.is_money)),
    orderingKey: r.ordering_key ?? null,
    traceparent: r.traceparent ?? null,
    tracestate: r.tracestate ?? null,
    createdAt: num(r.created_at),
  };
}

export function eventToRow(e: EventRecord, bodyHash: string): Row {
  return {
    id: e.id,
    tenant_id: e.tenantId,
    event_id: e.eventId,
    type: e.type,
    version: e.version,
    occurred_at: e.occurredAt,
    body: e.body,
    body_hash: bodyHash,
    payload_format: e.payloadFormat ?? 'envelope',
    is_money: e.isMoney ? 1 : 0,
    ordering_key: e.orderingKey ?? null,
    traceparent: e.traceparent ?? null,
    tracestate: e.tracestate ?? null,
    created_at: e.createdAt,
  };
}

/** A claimed row's event trace context (`ev_traceparent`, `ev_tracestate` joined from events). */
export function claimedTrace(r: Row): TraceContext | null {
  return r.ev_traceparent ? { traceparent: r.ev_traceparent, tracestate: r.ev_tracestate ?? null } : null;
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

/**
 * The record of a delivery just inserted with its event, as the accept returns it: nothing attempted yet. An ordered
 * delivery passes the place and due time its insert gave it.
 */
export function newDelivery(
  ev: EventRecord,
  d: NewEvent['deliveries'][number],
  ordered: { orderingSeq: number; nextAttemptAt: number | null } | null = null,
): Delivery {
  return {
    id: d.id,
    tenantId: ev.tenantId,
    eventPk: ev.id,
    eventId: ev.eventId,
    eventType: ev.type,
    endpointId: d.endpointId,
    status: d.lease ? 'delivering' : d.status,
    ladder: 'fast',
    isMoney: ev.isMoney,
    attemptCount: 0,
    fastFailures: 0,
    slowFailures: 0,
    slowStartedAt: null,
    firstAttemptAt: null,
    lastAttemptAt: null,
    nextAttemptAt: ordered ? ordered.nextAttemptAt : d.nextAttemptAt,
    leaseUntil: d.lease?.until ?? null,
    terminalReason: null,
    orderingKey: ordered ? d.orderingKey! : null,
    orderingSeq: ordered ? ordered.orderingSeq : null,
    dismissedAt: null,
    heldSince: null,
    heldUntil: null,
    createdAt: ev.createdAt,
    updatedAt: ev.createdAt,
  };
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

export function replayFromRow(r: Row): ReplayRow {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    endpointId: r.endpoint_id ?? null,
    kind: r.kind,
    sinceMs: numOrNull(r.since_ms),
    untilMs: numOrNull(r.until_ms),
    includeSkipped: Boolean(num(r.include_skipped)),
    selected: num(r.selected),
    attempted: num(r.attempted),
    succeeded: num(r.succeeded),
    failed: num(r.failed),
    createdAt: num(r.created_at),
  };
}

export function replayToRow(r: ReplayRow): Row {
  return {
    id: r.id,
    tenant_id: r.tenantId,
    endpoint_id: r.endpointId,
    since_ms: r.sinceMs,
    until_ms: r.untilMs,
    include_skipped: r.includeSkipped ? 1 : 0,
    selected: r.selected,
    kind: r.kind,
    created_at: r.createdAt,
  };
}

export function breakerFromRow(r: Row): BreakerRow {
  return {
    scopeKey: r.scope_key,
    tenantId: r.tenant_id,
    state: r.state,
    pauseMs: num(r.pause_ms),
    openedAt: numOrNull(r.opened_at),
    nextProbeAt: numOrNull(r.next_probe_at),
    probeDeliveryId: r.probe_delivery_id ?? null,
    updatedAt: num(r.updated_at),
  };
}

export function breakerToRow(b: BreakerRow): Row {
  return {
    scope_key: b.scopeKey,
    tenant_id: b.tenantId,
    state: b.state,
    pause_ms: b.pauseMs,
    opened_at: b.openedAt,
    next_probe_at: b.nextProbeAt,
    probe_delivery_id: b.probeDeliveryId,
    updated_at: b.updatedAt,
  };
}

export function noticeFromRow(r: Row): Notice {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    environment: r.environment,
    kind: r.kind,
    subjectId: r.subject_id ?? null,
    message: r.message,
    data: json(r.data, {}),
    createdAt: num(r.created_at),
    resolvedAt: numOrNull(r.resolved_at),
  };
}

export function noticeToRow(n: Omit<Notice, 'environment'>): Row {
  return {
    id: n.id,
    tenant_id: n.tenantId,
    kind: n.kind,
    subject_id: n.subjectId,
    message: n.message,
    data: JSON.stringify(n.data),
    created_at: n.createdAt,
    resolved_at: n.resolvedAt,
  };
}

export function eventTypeFromRow(r: Row): EventTypeRow {
  return { name: r.name, description: r.description, definition: json(r.definition, {}), updatedAt: num(r.updated_at) };
}

export function outboxToRow(e: OutboxEntry, dueAt = e.createdAt): Row {
  return {
    id: e.id,
    tenant_id: e.tenantId,
    kind: e.kind,
    subject_id: e.subjectId,
    endpoint_id: e.endpointId,
    data: JSON.stringify(e.data),
    due_at: dueAt,
    now: e.createdAt,
  };
}

export function outboxFromRow(r: Row): OutboxRow {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    kind: r.kind,
    subjectId: r.subject_id ?? null,
    endpointId: r.endpoint_id ?? null,
    data: json(r.data, {}),
    createdAt: num(r.created_at),
    status: r.status,
    tries: num(r.tries),
    dueAt: num(r.due_at),
    leaseUntil: numOrNull(r.lease_until),
    lastError: r.last_error ?? null,
  };
}

export function failureSummaryFromRow(r: Row): FailureSummaryState {
  return {
    count: num(r.count),
    money: num(r.money),
    first: json(r.first_failures, []),
    firstAt: numOrNull(r.first_at),
    lastAt: numOrNull(r.last_at),
    lastSentAt: numOrNull(r.last_sent_at),
  };
}

export function failureSummaryToRow(endpointId: string, s: FailureSummaryState): Row {
  return {
    endpoint_id: endpointId,
    count: s.count,
    money: s.money,
    first_failures: JSON.stringify(s.first),
    first_at: s.firstAt,
    last_at: s.lastAt,
    last_sent_at: s.lastSentAt,
  };
}
