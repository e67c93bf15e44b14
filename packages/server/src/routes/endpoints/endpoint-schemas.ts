// Request schemas of endpoint routes, shared by create and edit.
import {
  EVENT_TYPE_SUBSCRIPTION,
  ORDERING_ON_FAILURE,
  ORDERINGS,
  SCHEMES,
  SETTABLE_ENDPOINT_STATUSES,
  SIGNINGS,
} from '@hookline/core';

export const endpointFields = {
  url: {
    type: 'string',
    minLength: 1,
    description: 'Absolute https URL (http only with --allow-http), at most 2048 characters, public address.',
  },
  description: { type: 'string', maxLength: 1000 },
  event_types: {
    type: 'array',
    maxItems: 200,
    items: { type: 'string', maxLength: EVENT_TYPE_SUBSCRIPTION.maxLength, pattern: EVENT_TYPE_SUBSCRIPTION.pattern },
    description: 'Exact names and `prefix.*` wildcards; empty means every type.',
  },
  policy: {
    type: 'string',
    maxLength: 64,
    description: 'payments, standard (default), brief, strict, or a configured policy.',
  },
  scheme: { type: 'string', enum: [...SCHEMES] },
  timeout_ms: { type: ['integer', 'null'], minimum: 100, maximum: 60_000, description: "null: the policy's timeout." },
  max_concurrency: { type: ['integer', 'null'], minimum: 1, maximum: 1000, description: "null: the policy's." },
  rate_limit_per_s: {
    type: ['integer', 'null'],
    description:
      'At most this many sends a second across every worker, 1-10000 (rate_limit_invalid otherwise); null: no limit (default). Deliveries over it wait without spending attempts.',
  },
  status: {
    type: 'string',
    enum: [...SETTABLE_ENDPOINT_STATUSES],
    description: 'paused stops attempts; active reactivates.',
  },
  ordering: {
    type: 'string',
    enum: [...ORDERINGS],
    description:
      'key: deliveries of one event ordering_key are attempted one at a time, in accept order (default none). Applies to events accepted after the change.',
  },
  payload_filter: {
    type: ['object', 'null'],
    description:
      'docs/filters.md: a JSON filter on the envelope (equals, in, exists, gt/gte/lt/lte on dotted paths, combined with all/any); null clears it. 400 invalid_filter names the bad part.',
  },
  headers: {
    type: 'object',
    additionalProperties: { type: 'string' },
    description:
      'Custom headers (at most 20) sent on every attempt; an edit replaces the whole set, {} clears it. Hop-by-hop headers and those Hookline sets are refused (400 invalid_header).',
  },
  on_failure: {
    type: 'string',
    enum: [...ORDERING_ON_FAILURE],
    description:
      'With ordering key: continue (default) lets a key go on after a failed delivery; block holds it until that delivery is replayed successfully or dismissed.',
  },
  proxy: {
    type: ['string', 'null'],
    maxLength: 63,
    description:
      'docs/rules.md#egress-proxy: null (default) the configured egress proxy; "none" direct; or the name of a proxy under egress.proxies.',
  },
  client_certificate: {
    type: ['object', 'null'],
    additionalProperties: false,
    required: ['certificate', 'key'],
    properties: {
      certificate: { type: 'string', maxLength: 65_536, description: 'PEM certificate (chain).' },
      key: {
        type: 'string',
        maxLength: 65_536,
        description: 'PEM private key (unencrypted); sealed at rest, never shown again.',
      },
    },
    description:
      'docs/rules.md#client-certificate: presented on every attempt (mTLS); null removes it. 400 client_certificate_invalid when it does not parse, has expired or the key does not match.',
  },
  oauth2: {
    type: ['object', 'null'],
    additionalProperties: false,
    required: ['token_url', 'client_id'],
    properties: {
      token_url: { type: 'string', maxLength: 2048, description: 'Same rules as an endpoint URL (SSRF).' },
      client_id: { type: 'string', maxLength: 1000 },
      client_secret: {
        type: 'string',
        maxLength: 1000,
        description: 'Sealed at rest, never shown again; omit it to keep the current one.',
      },
      scope: { type: ['string', 'null'], maxLength: 1000 },
      audience: { type: ['string', 'null'], maxLength: 1000 },
    },
    description:
      'docs/rules.md#oauth2: client credentials; each attempt carries Authorization: Bearer <token> from token_url; null removes it.',
  },
  signing: {
    type: 'string',
    enum: [...SIGNINGS],
    description:
      'hmac (default): whsec_ secrets, v1. ed25519: a key pair Hookline keeps, v1a signatures in the standard scheme (the default scheme then); receivers hold only the whpk_ public key. Fixed at creation.',
  },
} as const;

/** PATCH only: with `status: "active"` on a paused endpoint, replay what the pause missed (docs/rules.md#catch-up). */
export const catchUpField = {
  catch_up: {
    type: 'boolean',
    description:
      'With status active on a paused endpoint: one window replay of everything that failed or was skipped since the pause began (10,000 oldest, counts against the daily replay quota); its id is in catch_up.replay_id.',
  },
} as const;
