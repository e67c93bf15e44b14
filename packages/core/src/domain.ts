// The nouns of Hookline (docs/rules.md#domain) as plain records; stores return these, the API serialises them.

import type { PayloadFilter } from './filters/payload-filter.ts';
import type { Ladder, OutcomeClass } from './policy/types.ts';

// The vocabulary: each list below is the one spelling of its values; the type is read from the list, and the API's
// schemas, its validators and the CLI name the list (packages/server/test/vocabulary.drift.test.ts holds them to it).
export const DELIVERY_STATUSES = ['pending', 'delivering', 'held', 'succeeded', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
/** Still to do: queued, in flight or held by a breaker. */
export const QUEUED_STATUSES = ['pending', 'delivering', 'held'] as const satisfies readonly DeliveryStatus[];
export const TERMINAL_STATUSES = ['succeeded', 'failed', 'skipped'] as const satisfies readonly DeliveryStatus[];
export const ENDPOINT_STATUSES = ['active', 'degraded', 'paused'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];
/** The statuses a caller may set (`degraded` is only ever the health rule's). */
export const SETTABLE_ENDPOINT_STATUSES = ['active', 'paused'] as const satisfies readonly EndpointStatus[];
export const PAUSE_REASONS = ['manual', 'failing', 'consecutive_failures', 'gone'] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];
export const SCHEMES = ['hookline', 'standard'] as const;
export type Scheme = (typeof SCHEMES)[number];
/** How an endpoint signs (docs/rules.md#signing-ed25519): `hmac` secrets (whsec_, v1) or `ed25519` key pairs (v1a, standard scheme only). */
export const SIGNINGS = ['hmac', 'ed25519'] as const;
export type Signing = (typeof SIGNINGS)[number];
/** Ordered delivery (docs/rules.md#ordered-delivery): `key` attempts deliveries of one ordering key one at a time, in accept order. */
export const ORDERINGS = ['none', 'key'] as const;
export type Ordering = (typeof ORDERINGS)[number];
/** What a failed delivery does to its key (docs/rules.md#ordered-failure): `continue` lets the next go, `block` holds the key. */
export const ORDERING_ON_FAILURE = ['continue', 'block'] as const;
export type OrderingOnFailure = (typeof ORDERING_ON_FAILURE)[number];
/** An ordering key is at most this many bytes of UTF-8. */
export const MAX_ORDERING_KEY_BYTES = 256;
export const ATTEMPT_TRIGGERS = ['scheduled', 'replay', 'test', 'probe'] as const;
export type AttemptTrigger = (typeof ATTEMPT_TRIGGERS)[number];
/** A circuit breaker's scope and states (docs/rules.md#breaker-scope). */
export const BREAKER_SCOPES = ['tenant', 'endpoint'] as const;
export const BREAKER_STATES = ['closed', 'open', 'probing'] as const;
/** Why an attempt did not succeed; `status` means an HTTP response arrived with a non-2xx code. */
export type ErrorClass =
  | 'timeout'
  | 'connection'
  | 'dns'
  | 'tls'
  | 'status'
  | 'refused_address'
  | 'body_too_large'
  | EgressErrorClass;
/**
 * Failures before the receiver was asked (docs/rules.md#egress-failures): the forward proxy, or the endpoint's OAuth2
 * token endpoint. Delivery failures that retry on the ladder, but say nothing about the receiver's health.
 */
export type EgressErrorClass = 'proxy_refused' | 'proxy_auth_failed' | 'proxy_unreachable' | 'oauth_token_failed';
export const EGRESS_ERROR_CLASSES: readonly EgressErrorClass[] = [
  'proxy_refused',
  'proxy_auth_failed',
  'proxy_unreachable',
  'oauth_token_failed',
];
/** An attempt that never reached the receiver because Hookline's own egress failed. */
export function isEgressFailure(errorClass: ErrorClass | null): boolean {
  return errorClass !== null && (EGRESS_ERROR_CLASSES as readonly string[]).includes(errorClass);
}
/** A tenant's environment (docs/rules.md#environments): fixed at creation; its keys, attempts and notices name it. */
export const ENVIRONMENTS = ['test', 'live'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
export const DEFAULT_ENVIRONMENT: Environment = 'live';
/** What an event's attempts send (docs/svix-compatibility.md#raw-payload): Hookline's envelope or the payload itself. */
export type PayloadFormat = 'envelope' | 'raw';
/** String labels a caller attaches (the Svix-compatible API's `metadata`). */
export type Metadata = Record<string, string>;

export interface Tenant {
  id: string;
  name: string;
  /** Fixed at creation; never changes. */
  environment: Environment;
  ownerEmails: string[];
  /** Operational notifications: an endpoint of this tenant that receives endpoint.degraded etc. */
  operationsEndpointId: string | null;
  notifyEmail: boolean;
  /** docs/svix-compatibility.md: a caller-chosen id, unique over tenants; null: none. Stores always return it. */
  uid?: string | null;
  metadata?: Metadata;
  /** How messages sent through the Svix-compatible API are sent; absent: `envelope`. Stores always return it. */
  payloadFormat?: PayloadFormat;
  /** Svix's application `rateLimit`, kept and shown (not enforced); null: none. */
  appRateLimit?: number | null;
  /** The admin's limits for this tenant (docs/rules.md#tenant-limits); a null field takes the server's default. */
  limits: TenantLimits;
  createdAt: number;
  updatedAt: number;
}

/** Per-tenant limits (docs/rules.md#tenant-limits); null: none of its own (the configured default applies, or none). */
export interface TenantLimits {
  /** New events accepted per second, across every API process (a token bucket holding one second's worth). */
  eventsPerS: number | null;
  /** New events accepted per UTC day. */
  eventsPerDay: number | null;
  maxEndpoints: number | null;
  /** Largest event envelope accepted, in bytes. */
  maxPayloadBytes: number | null;
}

export const NO_TENANT_LIMITS: Readonly<TenantLimits> = Object.freeze({
  eventsPerS: null,
  eventsPerDay: null,
  maxEndpoints: null,
  maxPayloadBytes: null,
});

export interface Endpoint {
  id: string;
  tenantId: string;
  url: string;
  description: string;
  /** Exact names and `prefix.*` wildcards; empty means every type. */
  eventTypes: string[];
  policy: string;
  scheme: Scheme;
  timeoutMs: number | null; // null: the policy's
  maxConcurrency: number; // resolved from the policy when not given
  /** Absent: `none` / `continue` (stores always return both). */
  ordering?: Ordering;
  orderingOnFailure?: OrderingOnFailure;
  /** docs/filters.md: only events whose envelope passes get a delivery; absent or null: every event. */
  payloadFilter?: PayloadFilter | null;
  /** docs/rules.md#custom-headers: sent on every attempt beneath the signed headers; absent: none. */
  customHeaders?: Record<string, string>;
  /** When the current pause began (stores set it on every path to paused); null unless paused. */
  pausedAt?: number | null;
  /** Fixed at creation; absent: `hmac` (stores always return it). */
  signing?: Signing;
  /** docs/rules.md#rate-limit: at most this many sends a second across all workers; null/absent: no limit. */
  rateLimitPerS?: number | null;
  /** docs/rules.md#adaptive-concurrency: the concurrency the dispatcher learned (read-only); null/absent: max_concurrency. */
  effectiveConcurrency?: number | null;
  /** docs/rules.md#egress-proxy: proxy choice, client certificate, OAuth2 client as shown; absent: not loaded. */
  egress?: EndpointEgressSummary;
  /** docs/svix-compatibility.md: a caller-chosen id, unique within the tenant; null: none. Stores always return it. */
  uid?: string | null;
  metadata?: Metadata;
  /** docs/rules.md#channels: only events sharing one of these; null/absent/empty: every event. */
  channels?: string[] | null;
  status: EndpointStatus;
  pauseReason: PauseReason | null;
  /** Start of the current uninterrupted failure streak (null when the last attempt succeeded). */
  failingSince: number | null;
  /** Distinct deliveries whose latest attempt failed since the last success (brief auto-suspend). */
  consecutiveFailedEvents: number;
  lastSuccessAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** An endpoint's way out as the API shows it: never the private key or the client secret. */
export interface EndpointEgressSummary {
  /** null: the configured proxy; `none`: direct; else a name under egress.proxies. */
  proxy: string | null;
  certificate: { subject: string; expiresAt: number } | null;
  oauth2: {
    tokenUrl: string;
    clientId: string;
    scope: string | null;
    audience: string | null;
    hasSecret: boolean;
  } | null;
}

/** A signing secret; the plaintext never reaches the store (encrypted with the master key). */
export interface EndpointSecret {
  kid: string;
  endpointId: string;
  secret: string; // plaintext, decrypted by the store layer's caller
  createdAt: number;
  /** Retired at this fixed time (rotation overlap); null while current. */
  expiresAt: number | null;
}

export interface EventRecord {
  id: string; // evt_… internal key
  tenantId: string;
  eventId: string; // the provider's id, unique per tenant
  type: string;
  version: string;
  occurredAt: string; // ISO-8601 as sent in the envelope
  body: Buffer; // the exact bytes every attempt sends
  /** What the body holds: Hookline's envelope, or the payload itself (`raw`); set at accept, stores always return it. */
  payloadFormat?: PayloadFormat;
  isMoney: boolean;
  /** Deliveries to endpoints with ordering `key` are attempted one at a time per key, in accept order; null: unordered. */
  orderingKey?: string | null;
  /**
   * The W3C trace context its attempts continue (docs/observability.md#traces): the producer's `traceparent` and
   * `tracestate`, else the accept span's; null: none. Stores always return both.
   */
  traceparent?: string | null;
  tracestate?: string | null;
  createdAt: number;
}

export interface Delivery {
  id: string;
  tenantId: string;
  eventPk: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  status: DeliveryStatus;
  ladder: Ladder;
  isMoney: boolean;
  attemptCount: number;
  fastFailures: number;
  slowFailures: number;
  slowStartedAt: number | null;
  firstAttemptAt: number | null;
  lastAttemptAt: number | null;
  nextAttemptAt: number | null;
  leaseUntil: number | null;
  terminalReason: string | null;
  /** Set only when the endpoint orders by key: the event's key, and the delivery's place in that key's order (1, 2, …). */
  /** Stores always return these three; absent means null. */
  orderingKey?: string | null;
  orderingSeq?: number | null;
  /** A failed delivery of a blocking key that was dismissed (it no longer holds the key); null otherwise. */
  dismissedAt?: number | null;
  /**
   * The held period its next attempt takes over (docs/rules.md#breaker-hold): since the first hold (a re-hold keeps
   * it), until the release (null while still held). Both null once an attempt recorded them. Stores always return them.
   */
  heldSince?: number | null;
  heldUntil?: number | null;
  createdAt: number;
  updatedAt: number;
  /**
   * The latest attempt's answer (docs/rules.md#dead-letter): set on deliveries read by a list (null before any
   * attempt); not read elsewhere (one delivery is read with every attempt).
   */
  lastResponse?: { status: number | null; excerpt: string | null; error: string | null } | null;
}

export interface Attempt {
  id: string;
  deliveryId: string;
  tenantId: string;
  /** The tenant's environment (not a column of its own: read from the tenant, whose environment never changes). */
  environment: Environment;
  endpointId: string;
  n: number;
  trigger: AttemptTrigger;
  /** The ladder that scheduled it: its delivery's when claimed ('fast' for a first attempt); null for older rows. */
  ladder: Ladder | null;
  startedAt: number;
  durationMs: number;
  requestHeaders: Record<string, string>;
  responseStatus: number | null;
  responseHeaders: Record<string, string> | null;
  responseExcerpt: string | null;
  errorClass: ErrorClass | null;
  errorMessage: string | null;
  outcome: OutcomeClass;
  /** The trace this attempt's span is in (docs/observability.md#traces); null when tracing was off. Stores always return it. */
  traceId?: string | null;
  /**
   * The held period (breaker open) that ended with this attempt: from the delivery's first hold until its release,
   * or until this attempt (a probe). The store sets both when it records the attempt, from the delivery; the values
   * of an attempt handed to it are not read. Stores always return them; null: not held before this attempt.
   */
  heldFrom?: number | null;
  heldUntil?: number | null;
}

/** A circuit-breaker state change (docs/rules.md#breaker-scope), for notifications and `hookline simulate --scenario`. */
export interface BreakerTransition {
  at: number;
  scope: (typeof BREAKER_SCOPES)[number];
  scopeKey: string;
  tenantId: string;
  from: (typeof BREAKER_STATES)[number];
  to: (typeof BREAKER_STATES)[number];
  /** failure_ratio | probe_claimed | probe_failed | probe_succeeded | probe_stale | manual_reset */
  reason: string;
  /** The current pause (0 once closed). */
  pauseMs: number;
  nextProbeAt: number | null;
  probeDeliveryId: string | null;
}
