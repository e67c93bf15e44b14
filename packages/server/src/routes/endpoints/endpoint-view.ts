// An endpoint as the API answers it, and its JSON Schema.
import { ENDPOINT_STATUSES, type Endpoint, ORDERING_ON_FAILURE, ORDERINGS, SCHEMES, SIGNINGS } from '@hookline/core';
import { named } from '../../http/schema-names.ts';
import { int, iso, nullableInt, nullableStr, nullableTime, obj, str, stringMap, time } from '../../http/views.ts';

export const EndpointSchema = named(
  'Endpoint',
  obj({
    id: str,
    tenant_id: str,
    url: str,
    description: str,
    event_types: { type: 'array', items: str },
    policy: str,
    scheme: { type: 'string', enum: [...SCHEMES] },
    timeout_ms: nullableInt,
    max_concurrency: int,
    rate_limit_per_s: { ...nullableInt, description: 'Sends a second across every worker; null: no limit.' },
    effective_concurrency: {
      ...int,
      description:
        'The concurrency Hookline currently allows the endpoint, learned from its 429/503 answers and latency (1 … max_concurrency).',
    },
    ordering: { type: 'string', enum: [...ORDERINGS] },
    on_failure: { type: 'string', enum: [...ORDERING_ON_FAILURE] },
    payload_filter: {
      type: ['object', 'null'],
      additionalProperties: true,
      description: 'docs/filters.md: only events whose envelope passes get a delivery; null: every event.',
    },
    headers: {
      ...stringMap,
      description:
        'Custom headers sent on every attempt (values that look like credentials are redacted in attempt records).',
    },
    paused_at: { ...nullableTime, description: 'When the current pause began; null unless paused.' },
    signing: {
      type: 'string',
      enum: [...SIGNINGS],
      description:
        'hmac: whsec_ secrets (v1); ed25519: key pairs (v1a, standard scheme), receivers hold only the whpk_ public key. Fixed at creation.',
    },
    proxy: {
      ...nullableStr,
      description: 'docs/rules.md#egress-proxy: null the configured egress proxy; "none" direct; else a named proxy.',
    },
    client_certificate: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['has_certificate', 'subject', 'expires_at'],
      properties: { has_certificate: { type: 'boolean' }, subject: str, expires_at: time },
      description: 'The client certificate presented on every attempt (its key is never shown); null: none.',
    },
    oauth2: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['token_url', 'client_id', 'scope', 'audience', 'has_secret'],
      properties: {
        token_url: str,
        client_id: str,
        scope: nullableStr,
        audience: nullableStr,
        has_secret: { type: 'boolean' },
      },
      description: 'OAuth2 client credentials (the secret is never shown); null: none.',
    },
    status: { type: 'string', enum: [...ENDPOINT_STATUSES] },
    pause_reason: nullableStr,
    failing_since: nullableTime,
    consecutive_failed_events: int,
    last_success_at: nullableTime,
    created_at: time,
    updated_at: time,
  }),
);
export const endpointView = (e: Endpoint) => ({
  id: e.id,
  tenant_id: e.tenantId,
  url: e.url,
  description: e.description,
  event_types: e.eventTypes,
  policy: e.policy,
  scheme: e.scheme,
  timeout_ms: e.timeoutMs,
  max_concurrency: e.maxConcurrency,
  rate_limit_per_s: e.rateLimitPerS ?? null,
  effective_concurrency: Math.min(e.effectiveConcurrency ?? e.maxConcurrency, e.maxConcurrency),
  ordering: e.ordering ?? 'none',
  on_failure: e.orderingOnFailure ?? 'continue',
  payload_filter: e.payloadFilter ?? null,
  headers: e.customHeaders ?? {},
  paused_at: iso(e.pausedAt),
  signing: e.signing ?? 'hmac',
  ...egressView(e.egress),
  status: e.status,
  pause_reason: e.pauseReason,
  failing_since: iso(e.failingSince),
  consecutive_failed_events: e.consecutiveFailedEvents,
  last_success_at: iso(e.lastSuccessAt),
  created_at: iso(e.createdAt),
  updated_at: iso(e.updatedAt),
});

/** The endpoint's egress settings as shown: never the private key or the client secret. */
function egressView(g: Endpoint['egress']) {
  return {
    proxy: g?.proxy ?? null,
    client_certificate: g?.certificate
      ? { has_certificate: true, subject: g.certificate.subject, expires_at: iso(g.certificate.expiresAt) }
      : null,
    oauth2: g?.oauth2
      ? {
          token_url: g.oauth2.tokenUrl,
          client_id: g.oauth2.clientId,
          scope: g.oauth2.scope,
          audience: g.oauth2.audience,
          has_secret: g.oauth2.hasSecret,
        }
      : null,
  };
}
