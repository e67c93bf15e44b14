// Row ↔ record mapping of an endpoint (both dialects, same columns).
import type { Endpoint } from '../../domain.ts';
import { json, num, numOrNull, type Row } from '../row-values.ts';

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
