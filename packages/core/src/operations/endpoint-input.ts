// What a caller may ask of an endpoint: the create and edit input, the checks of its values, the endpoint a create
// makes of it and the store patch an edit makes (validated against the current endpoint). A new endpoint field is
// read here, in both directions.
import type { Endpoint, EndpointStatus, Metadata, Ordering, OrderingOnFailure, Scheme, Signing } from '../domain.ts';
import { fail } from '../errors.ts';
import { parsePayloadFilter } from '../filters/payload-filter.ts';
import { parseCustomHeaders } from '../http/custom-headers.ts';
import type { PolicyRegistry } from '../policy/registry.ts';
import type { EndpointPatch } from '../store/store.ts';
import type { EndpointEgressInput } from './endpoint-egress.ts';

export interface EndpointInput extends EndpointEgressInput {
  url: string;
  description?: string;
  event_types?: string[];
  policy?: string;
  scheme?: Scheme;
  timeout_ms?: number | null;
  max_concurrency?: number | null;
  status?: EndpointStatus;
  /** docs/rules.md#ordered-delivery: `key` orders deliveries per event ordering_key (default `none`). */
  ordering?: Ordering;
  /** docs/rules.md#ordered-failure: what a failed delivery does to its key (default `continue`). */
  on_failure?: OrderingOnFailure;
  /** docs/filters.md: a JSON filter on the envelope; null clears it. Validated here (400 `invalid_filter`). */
  payload_filter?: unknown;
  /** docs/rules.md#custom-headers: name → value, sent on every attempt; an edit replaces the whole set. */
  headers?: Record<string, string>;
  /** docs/rules.md#signing-ed25519: `hmac` (default) or `ed25519` (v1a, standard scheme only; the scheme defaults to standard then). Fixed at creation. */
  signing?: Signing;
  /** docs/rules.md#rate-limit: at most this many sends a second, across every worker (null/absent: no limit). */
  rate_limit_per_s?: number | null;
  /** The Svix-compatible API's labels (docs/svix-compatibility.md): a uid unique in the tenant, metadata, channels. */
  uid?: string | null;
  metadata?: Metadata;
  channels?: string[] | null;
  /** A signing secret the caller chose (`whsec_` + base64 of 24–64 bytes), used as is; default a new one. HMAC only. */
  secret?: string;
}

/** A caller's own whsec_ secret: base64 of 24 to 64 bytes after the prefix (what Svix accepts). */
export function checkGivenSecret(secret: string): string {
  const m = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(secret);
  const n = m ? Buffer.from(m[1], 'base64').length : 0;
  if (!m || n < 24 || n > 64)
    throw fail('invalid_request', { detail: 'secret must be whsec_ followed by the base64 of 24 to 64 bytes' });
  return secret;
}

/** docs/rules.md#rate-limit: a whole number of sends a second, 1 … 10,000, or null (no limit). */
export const MAX_RATE_LIMIT_PER_S = 10_000;
export function checkRateLimit(v: unknown): number | null {
  if (v === null) return null;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_RATE_LIMIT_PER_S)
    throw fail('rate_limit_invalid');
  return v;
}

/** An edit; `catch_up` goes with `status: 'active'` (see reactivate). */
export type EndpointEdit = Partial<EndpointInput> & { catch_up?: boolean };

/** The endpoint a create makes of its input, with what the engine resolved (checked URL, policy, scheme, signing). */
export function newEndpoint(
  id: string,
  tenantId: string,
  input: EndpointInput,
  resolved: { url: string; policy: string; maxConcurrency: number; scheme: Scheme; signing: Signing },
  now: number,
): Endpoint {
  return {
    id,
    tenantId,
    url: resolved.url,
    description: input.description ?? '',
    eventTypes: input.event_types ?? [],
    policy: resolved.policy,
    scheme: resolved.scheme,
    timeoutMs: input.timeout_ms ?? null,
    maxConcurrency: input.max_concurrency ?? resolved.maxConcurrency,
    ordering: input.ordering ?? 'none',
    orderingOnFailure: input.on_failure ?? 'continue',
    payloadFilter: parsePayloadFilter(input.payload_filter),
    customHeaders: parseCustomHeaders(input.headers),
    pausedAt: input.status === 'paused' ? now : null,
    signing: resolved.signing,
    rateLimitPerS: checkRateLimit(input.rate_limit_per_s ?? null),
    uid: input.uid ?? null,
    metadata: input.metadata ?? {},
    channels: input.channels?.length ? input.channels : null,
    status: input.status === 'paused' ? 'paused' : 'active',
    pauseReason: input.status === 'paused' ? 'manual' : null,
    failingSince: null,
    consecutiveFailedEvents: 0,
    lastSuccessAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** The engine's own checks an edit needs: the URL under the SSRF rules, the policy by name. */
export interface EditChecks {
  url(url: string): string;
  policyName(name: string | undefined): string;
  readonly policies: PolicyRegistry;
}

/** The store patch of an edit, validated against the current endpoint. */
export function endpointPatch(cur: Endpoint, input: EndpointEdit, checks: EditChecks): EndpointPatch {
  const patch: EndpointPatch = {};
  if (input.url !== undefined) {
    patch.url = checks.url(input.url);
    if (patch.url !== cur.url) patch.clearHealth = true;
  }
  if (input.description !== undefined) patch.description = input.description;
  if (input.event_types !== undefined) patch.eventTypes = input.event_types;
  if (input.policy !== undefined) patch.policy = checks.policyName(input.policy);
  if (input.signing !== undefined && input.signing !== (cur.signing ?? 'hmac')) {
    throw fail('signing_immutable', { signing: cur.signing ?? 'hmac', requested: input.signing });
  }
  if (input.scheme !== undefined) {
    if (input.scheme !== 'standard' && cur.signing === 'ed25519') throw fail('signing_needs_standard_scheme');
    patch.scheme = input.scheme;
  }
  if (input.timeout_ms !== undefined) patch.timeoutMs = input.timeout_ms;
  if (input.max_concurrency !== undefined) {
    patch.maxConcurrency = input.max_concurrency ?? checks.policies.get(patch.policy ?? cur.policy)!.maxConcurrency;
  }
  if (input.ordering !== undefined) patch.ordering = input.ordering;
  if (input.on_failure !== undefined) patch.orderingOnFailure = input.on_failure;
  if (input.payload_filter !== undefined) patch.payloadFilter = parsePayloadFilter(input.payload_filter);
  if (input.headers !== undefined) patch.customHeaders = parseCustomHeaders(input.headers);
  if (input.rate_limit_per_s !== undefined) patch.rateLimitPerS = checkRateLimit(input.rate_limit_per_s);
  if (input.status !== undefined && input.status !== cur.status) {
    if (input.status === 'paused') {
      patch.status = 'paused';
      patch.pauseReason = 'manual';
    } else if (input.status === 'active') {
      // Reactivation starts a clean slate: only this resumes a paused endpoint.
      patch.status = 'active';
      patch.pauseReason = null;
      patch.clearHealth = true;
    } else {
      throw fail('invalid_request', { detail: 'status can be set to active or paused' });
    }
  }
  return patch;
}
