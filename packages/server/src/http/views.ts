// The API's JSON representations (snake_case, ISO-8601 times, prefixed ids) and the JSON Schema of each.
import type {
  ApiKeyRecord,
  Attempt,
  BreakerStatus,
  Delivery,
  Endpoint,
  Environment,
  EventRecord,
  Notice,
  ReplayRow,
  Tenant,
} from '@hookline/core';
import { named, schemaName } from './schema-names.ts';

type Schema = Record<string, unknown>;

export const iso = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString();

const str = { type: 'string' } as const;
const time = { type: 'string', format: 'date-time' } as const;
const nullableTime = { type: ['string', 'null'], format: 'date-time' } as const;
const nullableStr = { type: ['string', 'null'] } as const;
const nullableInt = { type: ['integer', 'null'] } as const;
const int = { type: 'integer' } as const;
const bool = { type: 'boolean' } as const;
const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;
/** docs/rules.md#environments: every tenant, and so each of its deliveries, attempts and notices, is test or live. */
const environment = {
  type: 'string',
  enum: ['test', 'live'],
  description: "The tenant's environment (test or live), fixed at its creation.",
} as const;

function obj(properties: Record<string, unknown>, description?: string): Schema {
  return { type: 'object', ...(description ? { description } : {}), required: Object.keys(properties), properties };
}

/** One problem with one field: `in` the body, query or path, at the JSON Pointer `path`. */
export const ErrorDetailSchema = named(
  'ErrorDetail',
  obj({
    in: { type: 'string', enum: ['body', 'query', 'path'] },
    path: {
      type: 'string',
      description: 'JSON Pointer (RFC 6901) into the part, e.g. /name or /events/0/type; empty for the part itself.',
    },
    message: str,
  }),
);

const errorObject = obj({ code: str, message: str, request_id: str });
export const ErrorSchema = named(
  'Error',
  obj(
    {
      error: {
        ...errorObject,
        properties: {
          ...(errorObject.properties as object),
          details: {
            type: 'array',
            maxItems: 100,
            items: ErrorDetailSchema,
            description: 'Every problem found, on errors about specific fields (validation); absent otherwise.',
          },
        },
      },
    },
    'An error from the catalog (docs/errors.md).',
  ),
);

const pages = new Map<string, Schema>();
/** One page of a list; a page of a named item is named too (`TenantPage`), once, whichever route asks first. */
export function pageSchema(item: Schema): Schema {
  const itemName = schemaName(item);
  if (itemName !== undefined && pages.has(itemName)) return pages.get(itemName)!;
  const page = obj({
    items: { type: 'array', items: item },
    next_cursor: { ...nullableStr, description: 'Pass as `cursor` for the next page; null on the last page.' },
  });
  if (itemName !== undefined) pages.set(itemName, named(`${itemName}Page`, page));
  return page;
}

// ---- tenants

export const TenantSchema = named(
  'Tenant',
  obj({
    id: str,
    name: str,
    environment,
    owner_emails: { type: 'array', items: str },
    notify_email: bool,
    operations_endpoint_id: nullableStr,
    created_at: time,
    updated_at: time,
  }),
);
export const tenantView = (t: Tenant) => ({
  id: t.id,
  name: t.name,
  environment: t.environment,
  owner_emails: t.ownerEmails,
  notify_email: t.notifyEmail,
  operations_endpoint_id: t.operationsEndpointId,
  created_at: iso(t.createdAt),
  updated_at: iso(t.updatedAt),
});

// ---- api keys

export const ApiKeySchema = named(
  'ApiKey',
  obj({
    id: str,
    tenant_id: str,
    name: str,
    prefix: str,
    created_at: time,
    last_used_at: {
      ...nullableTime,
      description: 'When the key last authenticated a request, to the minute; null: never used.',
    },
    revoked_at: nullableTime,
  }),
);
export const apiKeyView = (k: ApiKeyRecord) => ({
  id: k.id,
  tenant_id: k.tenantId,
  name: k.name,
  prefix: k.prefix,
  created_at: iso(k.createdAt),
  last_used_at: iso(k.lastUsedAt),
  revoked_at: iso(k.revokedAt),
});

// ---- endpoints

export const EndpointSchema = named(
  'Endpoint',
  obj({
    id: str,
    tenant_id: str,
    url: str,
    description: str,
    event_types: { type: 'array', items: str },
    policy: str,
    scheme: { type: 'string', enum: ['hookline', 'standard'] },
    timeout_ms: nullableInt,
    max_concurrency: int,
    rate_limit_per_s: { ...nullableInt, description: 'Sends a second across every worker; null: no limit.' },
    effective_concurrency: {
      ...int,
      description:
        'The concurrency Hookline currently allows the endpoint, learned from its 429/503 answers and latency (1 … max_concurrency).',
    },
    ordering: { type: 'string', enum: ['none', 'key'] },
    on_failure: { type: 'string', enum: ['continue', 'block'] },
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
      enum: ['hmac', 'ed25519'],
      description:
        'hmac: whsec_ secrets (v1); ed25519: key pairs (v1a, standard scheme), receivers hold only the whpk_ public key. Fixed at creation.',
    },
    status: { type: 'string', enum: ['active', 'degraded', 'paused'] },
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
  status: e.status,
  pause_reason: e.pauseReason,
  failing_since: iso(e.failingSince),
  consecutive_failed_events: e.consecutiveFailedEvents,
  last_success_at: iso(e.lastSuccessAt),
  created_at: iso(e.createdAt),
  updated_at: iso(e.updatedAt),
});

const signingField = { type: 'string', enum: ['hmac', 'ed25519'] } as const;
const secretField = {
  ...nullableStr,
  description: 'The HMAC signing secret (`whsec_…`); null for an ed25519 key, whose secret key is never shown.',
};
const publicKeyField = {
  ...nullableStr,
  description: 'The ed25519 public key (`whpk_…`) receivers verify v1a signatures with; null for an HMAC secret.',
};
export const SecretSchema = named(
  'SigningSecret',
  obj({
    kid: str,
    signing: signingField,
    secret: secretField,
    public_key: publicKeyField,
    created_at: time,
    expires_at: nullableTime,
  }),
);
export const SecretsSchema = named(
  'EndpointSecrets',
  obj({
    kid: { ...str, description: "The current secret's key id." },
    signing: signingField,
    secret: {
      ...secretField,
      description: 'The current HMAC signing secret (`whsec_…`); null on an ed25519 endpoint.',
    },
    public_key: {
      ...publicKeyField,
      description: 'The current ed25519 public key (`whpk_…`); null on an HMAC endpoint.',
    },
    secrets: {
      type: 'array',
      items: SecretSchema,
      description: "Every live secret (or key pair's public key), newest first; older ones retire at expires_at.",
    },
  }),
);
type LiveSecretView = {
  kid: string;
  signing: 'hmac' | 'ed25519';
  secret: string | null;
  publicKey: string | null;
  createdAt: number;
  expiresAt: number | null;
};
export const secretsView = (list: LiveSecretView[]) => ({
  kid: list[0].kid,
  signing: list[0].signing,
  secret: list[0].secret,
  public_key: list[0].publicKey,
  secrets: list.map((s) => ({
    kid: s.kid,
    signing: s.signing,
    secret: s.secret,
    public_key: s.publicKey,
    created_at: iso(s.createdAt),
    expires_at: iso(s.expiresAt),
  })),
});

// ---- events, deliveries, attempts

const eventFields = {
  id: str,
  event_id: str,
  type: str,
  version: str,
  occurred_at: str,
  is_money: bool,
  ordering_key: nullableStr,
  created_at: time,
};
/** An accepted event as ingest answers it: the caller sent the data, so the envelope is not echoed back. */
export const AcceptedEventSchema = named('AcceptedEvent', obj(eventFields));
export const EventSchema = named(
  'Event',
  obj({ ...eventFields, payload: { description: 'The exact envelope every attempt sends, as JSON.' } }),
);
export const acceptedEventView = (e: EventRecord) => ({
  id: e.id,
  event_id: e.eventId,
  type: e.type,
  version: e.version,
  occurred_at: e.occurredAt,
  is_money: e.isMoney,
  ordering_key: e.orderingKey ?? null,
  created_at: iso(e.createdAt),
});
export const eventView = (e: EventRecord) => ({
  ...acceptedEventView(e),
  payload: JSON.parse(e.body.toString('utf8')) as unknown,
});

export const DeliverySchema = named(
  'Delivery',
  obj({
    id: str,
    environment,
    event_id: str,
    event_type: str,
    endpoint_id: str,
    status: { type: 'string', enum: ['pending', 'delivering', 'held', 'succeeded', 'failed', 'skipped'] },
    ladder: str,
    is_money: bool,
    attempt_count: int,
    first_attempt_at: nullableTime,
    last_attempt_at: nullableTime,
    next_attempt_at: nullableTime,
    terminal_reason: nullableStr,
    ordering_key: { ...nullableStr, description: "Set when the endpoint orders by key: the event's ordering_key." },
    ordering_seq: { ...nullableInt, description: "The delivery's place in its key's order on the endpoint (1, 2, …)." },
    dismissed_at: { ...nullableTime, description: 'A failed delivery dismissed so it no longer holds its key.' },
    held_since: {
      ...nullableTime,
      description: 'While held (breaker open): when its current held period began; its next attempt records it.',
    },
    created_at: time,
    updated_at: time,
  }),
);
/** A delivery of a tenant in `environment` (a delivery stores none of its own: it is its tenant's). */
export const deliveryView = (d: Delivery, environment: Environment) => ({
  id: d.id,
  environment,
  event_id: d.eventId,
  event_type: d.eventType,
  endpoint_id: d.endpointId,
  status: d.status,
  ladder: d.ladder,
  is_money: d.isMoney,
  attempt_count: d.attemptCount,
  first_attempt_at: iso(d.firstAttemptAt),
  last_attempt_at: iso(d.lastAttemptAt),
  next_attempt_at: iso(d.nextAttemptAt),
  terminal_reason: d.terminalReason,
  ordering_key: d.orderingKey ?? null,
  ordering_seq: d.orderingSeq ?? null,
  dismissed_at: iso(d.dismissedAt ?? null),
  held_since: iso(d.heldSince ?? null),
  created_at: iso(d.createdAt),
  updated_at: iso(d.updatedAt),
});

export const AttemptSchema = named(
  'Attempt',
  obj({
    id: str,
    environment,
    delivery_id: str,
    endpoint_id: str,
    n: int,
    trigger: { type: 'string', enum: ['scheduled', 'replay', 'test', 'probe'] },
    ladder: {
      ...nullableStr,
      description:
        "The ladder that scheduled this attempt (the delivery's when it was claimed: fast for a first attempt); null for attempts recorded before Hookline kept it.",
    },
    started_at: time,
    duration_ms: { type: 'number' },
    outcome: { type: 'string', enum: ['success', 'delivery_failure', 'client_error'] },
    request_headers: stringMap,
    response_status: nullableInt,
    response_headers: { type: ['object', 'null'], additionalProperties: { type: 'string' } },
    response_body_excerpt: { ...nullableStr, description: 'The first few KB of the response body.' },
    error_class: {
      ...nullableStr,
      description: 'timeout, connection, dns, tls, status, refused_address, body_too_large',
    },
    error_message: nullableStr,
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
  held_from: iso(a.heldFrom),
  held_until: iso(a.heldUntil),
});

export const DeliveryDetailSchema: Schema = named('DeliveryDetail', {
  ...DeliverySchema,
  required: [...(DeliverySchema.required as string[]), 'payload', 'attempts'],
  properties: {
    ...(DeliverySchema.properties as object),
    payload: { description: 'The exact envelope every attempt sends, as JSON.' },
    attempts: { type: 'array', items: AttemptSchema },
  },
});

// ---- replays, notices, breakers

export const ReplaySchema = named(
  'Replay',
  obj({
    id: str,
    endpoint_id: nullableStr,
    kind: { type: 'string', enum: ['window', 'single'] },
    since: nullableTime,
    until: nullableTime,
    include_skipped: bool,
    selected: int,
    attempted: {
      ...int,
      description:
        'Selected deliveries the replay is done with: attempted, or ended unattempted because the endpoint paused (counted failed).',
    },
    succeeded: int,
    failed: int,
    done: { ...bool, description: 'Every selected delivery has had its attempt.' },
    created_at: time,
  }),
);
export const replayView = (r: ReplayRow) => ({
  id: r.id,
  endpoint_id: r.endpointId,
  kind: r.kind,
  since: iso(r.sinceMs),
  until: iso(r.untilMs),
  include_skipped: r.includeSkipped,
  selected: r.selected,
  attempted: r.attempted,
  succeeded: r.succeeded,
  failed: r.failed,
  done: r.attempted >= r.selected,
  created_at: iso(r.createdAt),
});
export const ReplayAcceptedSchema = named('ReplayAccepted', obj({ replay_id: str, replay: ReplaySchema }));

export const NoticeSchema = named(
  'Notice',
  obj({
    id: str,
    environment,
    kind: str,
    subject_id: nullableStr,
    message: str,
    data: { type: 'object', additionalProperties: true },
    created_at: time,
  }),
);
export const noticeView = (n: Notice) => ({
  id: n.id,
  environment: n.environment,
  kind: n.kind,
  subject_id: n.subjectId,
  message: n.message,
  data: n.data,
  created_at: iso(n.createdAt),
});

export const BreakerSchema = named(
  'Breaker',
  obj({
    scope_key: str,
    scope: { type: 'string', enum: ['tenant', 'endpoint'] },
    state: { type: 'string', enum: ['closed', 'open', 'probing'] },
    pause_ms: int,
    opened_at: nullableTime,
    next_probe_at: nullableTime,
    probe_delivery_id: nullableStr,
    updated_at: nullableTime,
    window: obj(
      { deliveries: int, failures: int, since: time },
      'Distinct deliveries attempted in the current sliding window (each counted once, by its latest attempt) and how many of them failed.',
    ),
  }),
);
export const breakerView = (b: BreakerStatus) => ({
  scope_key: b.scopeKey,
  scope: b.scope,
  state: b.state,
  pause_ms: b.pauseMs,
  opened_at: iso(b.openedAt),
  next_probe_at: iso(b.nextProbeAt),
  probe_delivery_id: b.probeDeliveryId,
  updated_at: iso(b.updatedAt),
  window: { deliveries: b.window.deliveries, failures: b.window.failures, since: iso(b.window.sinceMs) },
});
