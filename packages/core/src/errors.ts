// The one error catalog: every error a user can cause has a literal code, an HTTP status and a plain message.
// The server maps HooklineError to `{"error":{"code","message","request_id"}}`; docs/errors.md is checked against this list.

export const ERROR_CATALOG = {
  // 400 — the request itself is wrong
  invalid_request: { status: 400, message: 'request is invalid: {detail}' },
  invalid_json: { status: 400, message: 'body is not valid JSON' },
  json_too_deep: { status: 400, message: 'body nests arrays and objects deeper than {max} levels' },
  json_invalid_unicode: {
    status: 400,
    message: 'body holds a lone surrogate at {path}; strings must be well-formed Unicode',
  },
  schema_validation_failed: { status: 400, message: 'data does not match the event type schema at {path}: {detail}' },
  url_invalid: { status: 400, message: 'url is not a valid absolute URL' },
  url_must_be_https: { status: 400, message: 'url must be https' },
  url_scheme_unsupported: {
    status: 400,
    message:
      'url scheme {scheme} is not supported: endpoint URLs are https:// (http:// only where the server allows it)',
  },
  url_too_long: { status: 400, message: 'url must be at most 2048 characters' },
  url_private_address: {
    status: 400,
    message: 'url points to a private, loopback, link-local or otherwise non-public address',
  },
  unknown_policy: { status: 400, message: 'unknown policy {name}' },
  rate_limit_invalid: {
    status: 400,
    message: 'rate_limit_per_s must be a whole number from 1 to 10000, or null for no limit',
  },
  unknown_event_type: { status: 400, message: 'unknown event type {type}' },
  proxy_invalid: {
    status: 400,
    message: 'proxy must be null (the configured proxy), none (direct) or the name of a configured proxy',
  },
  client_certificate_invalid: { status: 400, message: 'client_certificate is invalid: {detail}' },
  oauth_client_invalid: { status: 400, message: 'oauth2 is invalid: {detail}' },
  ordering_key_too_long: { status: 400, message: 'ordering_key must be at most {max} bytes of UTF-8' },
  signing_needs_standard_scheme: {
    status: 400,
    message: 'ed25519 signing (v1a) exists only in the standard scheme: set scheme to standard',
  },
  batch_too_large: { status: 400, message: 'a batch holds at most {max} events' },
  invalid_cursor: { status: 400, message: 'cursor is not valid' },
  event_search_window_required: {
    status: 400,
    message:
      'a payload filter over more than {max} events needs a window: give since or until (or narrow by type) so the scan is bounded',
  },
  event_search_timeout: {
    status: 503,
    message: 'the event search ran past its time limit: narrow it by type, since/until or event_id_prefix, then retry',
  },
  invalid_filter: { status: 400, message: 'payload_filter is invalid at {path}: {detail}' },
  invalid_header: { status: 400, message: 'custom header {name} is not allowed: {detail}' },
  too_many_headers: { status: 400, message: 'an endpoint has at most {max} custom headers' },
  custom_headers_too_large: { status: 400, message: 'custom header names and values together are at most {max} bytes' },
  catch_up_needs_reactivation: { status: 400, message: 'catch_up goes with status "active" on a paused endpoint' },
  portal_link_invalid: {
    status: 400,
    message: 'this portal link is unknown, expired or already used; ask for a new one',
  },
  // 401/403 — who is asking
  unauthorized: { status: 401, message: 'missing or invalid credentials' },
  authorization_malformed: {
    status: 401,
    message: "the Authorization header must be 'Bearer <token>' (the admin token or a tenant API key)",
  },
  credentials_missing: {
    status: 401,
    message:
      'no credentials: send the admin token or a tenant API key as Authorization: Bearer … (the hookline CLI reads --token or HOOKLINE_TOKEN)',
  },
  forbidden: { status: 403, message: 'these credentials cannot do this' },
  csrf_token_invalid: {
    status: 403,
    message: "a console request that changes something needs the session's x-csrf-token header",
  },
  // 404 — another tenant's ids answer exactly like ids that do not exist
  not_found: { status: 404, message: 'not found' },
  tenant_not_found: { status: 404, message: 'unknown tenant' },
  endpoint_not_found: { status: 404, message: 'unknown endpoint' },
  event_not_found: { status: 404, message: 'unknown event' },
  delivery_not_found: { status: 404, message: 'unknown delivery' },
  replay_not_found: { status: 404, message: 'unknown replay' },
  api_key_not_found: { status: 404, message: 'unknown api key' },
  event_type_not_found: { status: 404, message: 'unknown event type' },
  message_not_found: { status: 404, message: 'unknown message' },
  attempt_not_found: { status: 404, message: 'unknown attempt' },
  // 409 — conflicts with current state
  event_conflict: { status: 409, message: 'event_id {event_id} was already accepted with a different body' },
  endpoint_paused: { status: 409, message: 'endpoint is paused; reactivate it with PATCH status=active first' },
  endpoint_not_paused: {
    status: 409,
    message: 'endpoint is {status}, not paused; catch_up replays what a pause missed, use a window replay instead',
  },
  delivery_not_replayable: {
    status: 409,
    message: 'delivery is {status}; only failed or skipped deliveries can be replayed',
  },
  delivery_not_dismissable: {
    status: 409,
    message:
      'delivery is {status}; only a failed delivery holding its ordering key (on_failure block) can be dismissed',
  },
  delivery_finished: {
    status: 409,
    message: 'delivery is {status} and has no next attempt; replay it instead (POST …/deliveries/{delivery_id}/replay)',
  },
  delivery_in_flight: {
    status: 409,
    message: 'delivery is being attempted right now; its outcome decides its next attempt',
  },
  delivery_not_head: {
    status: 409,
    message:
      'delivery waits behind {head_id} ({head_status}), the head of its ordering key; only the head of a key can be retried',
  },
  breaker_open: {
    status: 409,
    message:
      'delivery is held by the {scope} breaker {scope_key}, which is {state} (next probe {next_probe_at}); it goes when the breaker closes, or reset the breaker',
  },
  signing_immutable: {
    status: 409,
    message:
      "an endpoint's signing is fixed at creation: this endpoint signs with {signing}; create a new endpoint to sign with {requested}",
  },
  uid_taken: { status: 409, message: 'uid {uid} is already taken by another {what}' },
  idempotency_key_reused: {
    status: 409,
    message: 'idempotency-key {key} was already used with a different request in the last 12 hours',
  },
  environment_immutable: {
    status: 409,
    message:
      "a tenant's environment is fixed at creation: this tenant is {environment}; create a {requested} tenant instead",
  },
  endpoint_limit_reached: {
    status: 409,
    message: 'this tenant has {max} endpoints, its limit; delete one or ask the admin to raise max_endpoints',
  },
  // 408/413/415/429/431
  body_too_large: { status: 413, message: 'body exceeds {max} bytes' },
  unsupported_media_type: { status: 415, message: 'content-type must be application/json' },
  request_timeout: { status: 408, message: 'the request was not received completely within {ms} ms' },
  headers_too_large: { status: 431, message: 'request line and headers exceed {max} bytes' },
  replay_quota_exceeded: { status: 429, message: 'at most {max} window replays per tenant per UTC day' },
  tenant_rate_limited: { status: 429, message: 'this tenant may send at most {max} new events per second' },
  tenant_quota_exceeded: { status: 429, message: 'this tenant may send at most {max} new events per UTC day' },
  payload_too_large: { status: 413, message: "the event's envelope exceeds this tenant's limit of {max} bytes" },
  simulation_busy: { status: 429, message: 'at most {max} policy previews run at once; try again in a moment' },
  // 5xx — never leak internals
  internal_error: { status: 500, message: 'internal error' },
  storage_unavailable: { status: 503, message: 'storage is unavailable, try again' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** One problem with one field of a request: where (`in`), which field (a JSON Pointer, RFC 6901) and what is wrong. */
export interface ErrorDetail {
  readonly in: 'body' | 'query' | 'path';
  /** JSON Pointer into `in`: `/name`, `/events/0/type`; `` for the whole part. */
  readonly path: string;
  readonly message: string;
}

export class HooklineError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly params: Record<string, string | number>;
  /** Seconds until asking again can succeed (sent as `Retry-After`), for errors that are about time. */
  readonly retryAfterSec: number | undefined;
  /** Every problem found, for errors about specific fields of the request (validation); otherwise absent. */
  readonly details: readonly ErrorDetail[] | undefined;
  constructor(
    code: ErrorCode,
    params: Record<string, string | number> = {},
    options?: { cause?: unknown; details?: readonly ErrorDetail[]; retryAfterSec?: number },
  ) {
    const entry = ERROR_CATALOG[code];
    super(
      entry.message.replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? `{${k}}`)),
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'HooklineError';
    this.code = code;
    this.status = entry.status;
    this.params = params;
    this.retryAfterSec = options?.retryAfterSec;
    this.details = options?.details;
  }
}

/**
 * The one way to make a catalog error: `throw fail('endpoint_not_found')`, `fail('storage_unavailable', {}, { cause })`.
 * HooklineError is the class to test with (`isHooklineError`, `instanceof`); code outside this file never `new`s it
 * (scripts/one-way-to-throw.test.ts).
 */
export function fail(
  code: ErrorCode,
  params?: Record<string, string | number>,
  options?: { cause?: unknown; details?: readonly ErrorDetail[]; retryAfterSec?: number },
): HooklineError {
  return new HooklineError(code, params, options);
}

export function isHooklineError(err: unknown): err is HooklineError {
  return err instanceof HooklineError;
}
