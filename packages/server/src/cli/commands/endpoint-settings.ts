// The endpoint settings as flags: which flags `endpoints add`, `set` and `limit` take, and the API fields they become.
import { ORDERING_ON_FAILURE, ORDERINGS, SCHEMES, SETTABLE_ENDPOINT_STATUSES, SIGNINGS } from '@hookline/core';
import { InvalidDurationError, parseDuration } from '@hookline/core/config';
import { usageError } from '../cli-error.ts';
import { intValue } from '../parse-args.ts';
import type { UpdateEndpointBody } from '../request-bodies.ts';
import { EGRESS_FLAGS, EGRESS_OPTIONS, egressBody } from './endpoint-egress-flags.ts';

export const SETTING_OPTIONS = {
  url: { type: 'string' },
  policy: { type: 'string' },
  description: { type: 'string' },
  'event-types': { type: 'string' },
  scheme: { type: 'string' },
  timeout: { type: 'string' },
  'max-concurrency': { type: 'string' },
  'rate-limit': { type: 'string' },
  status: { type: 'string' },
  paused: { type: 'boolean' },
  ordering: { type: 'string' },
  'on-failure': { type: 'string' },
  filter: { type: 'string' },
  header: { type: 'string', multiple: true },
  'clear-headers': { type: 'boolean' },
  'catch-up': { type: 'boolean' },
  signing: { type: 'string' },
  ...EGRESS_OPTIONS,
} as const;

export type SettingFlag = keyof typeof SETTING_OPTIONS;
export type SettingValues = {
  [K in SettingFlag]?: (typeof SETTING_OPTIONS)[K] extends { multiple: true }
    ? string[]
    : (typeof SETTING_OPTIONS)[K]['type'] extends 'boolean'
      ? boolean
      : string;
};

/**
 * What `endpoints set` takes: every field of the API's endpoint PATCH (routes/endpoints/endpoint-schemas.ts) but
 * `signing`, which is fixed at creation. cli.endpoint-settings.test.ts holds this list against the PATCH schema.
 */
export const SET_FLAGS: readonly SettingFlag[] = [
  'url',
  'description',
  'event-types',
  'policy',
  'scheme',
  'timeout',
  'max-concurrency',
  'rate-limit',
  'status',
  'ordering',
  'on-failure',
  'filter',
  'header',
  'clear-headers',
  'catch-up',
  ...EGRESS_FLAGS,
];

/** What `endpoints add` takes: the creation fields (the URL is positional there). */
export const ADD_FLAGS: readonly SettingFlag[] = [
  'policy',
  'description',
  'event-types',
  'scheme',
  'timeout',
  'max-concurrency',
  'rate-limit',
  'paused',
  'ordering',
  'on-failure',
  'filter',
  'header',
  'signing',
  ...EGRESS_FLAGS,
];

/** Why a flag `endpoints set` does not take is not settable, and what to do instead. */
const NOT_SETTABLE: Partial<Record<SettingFlag, string>> = {
  signing:
    "--signing is fixed at creation (docs/rules.md#signing-ed25519); add a new endpoint with 'hookline endpoints add <url> --signing …'",
  paused: "--paused is for 'add'; use --status paused (or 'hookline endpoints pause')",
};

/** A one-line usage error for a setting flag the subcommand does not take. */
export function refuseFlag(command: string, sub: 'add' | 'set' | 'limit', flag: string): never {
  const reason =
    sub === 'set'
      ? (NOT_SETTABLE[flag as SettingFlag] ?? `--${flag} is not an endpoint setting`)
      : sub === 'add' && flag === 'url'
        ? "the receiver's URL is the positional argument, and the API's address is --api-url (or HOOKLINE_URL)"
        : `--${flag} does not go with '${sub}'`;
  const takes = sub === 'set' ? `; it takes ${SET_FLAGS.map((f) => `--${f}`).join(', ')}` : '';
  throw usageError(`${command}: ${reason}${takes}`);
}

/** The API fields of the setting flags given (only those of `allowed`); the server validates the values further. */
export function settingsBody(command: string, values: SettingValues): UpdateEndpointBody {
  const body: UpdateEndpointBody = {};
  if (values.url !== undefined) body.url = values.url;
  if (values.policy !== undefined) body.policy = values.policy;
  if (values.description !== undefined) body.description = values.description;
  if (values['event-types'] !== undefined)
    body.event_types = values['event-types']
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (values.scheme !== undefined) body.scheme = oneOf(command, 'scheme', values.scheme, SCHEMES);
  if (values.timeout !== undefined)
    body.timeout_ms = values.timeout === 'policy' ? null : durationMs(command, 'timeout', values.timeout);
  if (values['max-concurrency'] !== undefined)
    body.max_concurrency =
      values['max-concurrency'] === 'policy'
        ? null
        : intValue(command, 'max-concurrency', values['max-concurrency'], { min: 1, max: 1000 });
  if (values['rate-limit'] !== undefined) body.rate_limit_per_s = rateLimit(command, values['rate-limit']);
  if (values.status !== undefined) body.status = oneOf(command, 'status', values.status, SETTABLE_ENDPOINT_STATUSES);
  if (values.paused) body.status = 'paused';
  if (values['catch-up']) {
    if (body.status !== 'active')
      throw usageError(`${command}: --catch-up goes with --status active (it replays what the pause missed)`);
    body.catch_up = true;
  }
  if (values.ordering !== undefined) body.ordering = oneOf(command, 'ordering', values.ordering, ORDERINGS);
  if (values['on-failure'] !== undefined)
    body.on_failure = oneOf(command, 'on-failure', values['on-failure'], ORDERING_ON_FAILURE);
  if (values.signing !== undefined) body.signing = oneOf(command, 'signing', values.signing, SIGNINGS);
  Object.assign(body, filterAndHeaders(command, values), egressBody(command, values));
  return body;
}

function oneOf<T extends string>(command: string, flag: string, raw: string, choices: readonly T[]): T {
  if (!isOneOf(raw, choices)) throw usageError(`${command}: --${flag} must be ${choices.join(' or ')}, got '${raw}'`);
  return raw;
}

function isOneOf<T extends string>(raw: string, choices: readonly T[]): raw is T {
  return (choices as readonly string[]).includes(raw);
}

/** --filter, --header and --clear-headers as API fields; the server validates them (invalid_filter, invalid_header). */
function filterAndHeaders(
  command: string,
  values: { filter?: string; header?: string[]; 'clear-headers'?: boolean },
): Pick<UpdateEndpointBody, 'payload_filter' | 'headers'> {
  const body: Pick<UpdateEndpointBody, 'payload_filter' | 'headers'> = {};
  if (values.filter !== undefined) {
    if (values.filter === 'none') body.payload_filter = null;
    else {
      try {
        body.payload_filter = JSON.parse(values.filter);
      } catch {
        throw usageError(`${command}: --filter must be JSON (see docs/filters.md) or 'none', got '${values.filter}'`);
      }
    }
  }
  if (values['clear-headers'] && values.header?.length)
    throw usageError(`${command}: --clear-headers and --header do not go together`);
  if (values['clear-headers']) body.headers = {};
  if (values.header?.length) {
    const headers: Record<string, string> = {};
    for (const h of values.header) {
      const cut = h.indexOf(':');
      if (cut <= 0) throw usageError(`${command}: --header must be 'Name: value', got '${h}'`);
      headers[h.slice(0, cut).trim()] = h.slice(cut + 1).trim();
    }
    body.headers = headers;
  }
  return body;
}

/** docs/rules.md#rate-limit: 1 … 10,000 sends a second, or `off` (null: no limit). */
export function rateLimit(command: string, raw: string): number | null {
  if (raw === 'off' || raw === 'none') return null;
  return intValue(command, 'rate-limit', raw, { min: 1, max: 10_000 });
}

function durationMs(command: string, name: string, raw: string): number {
  try {
    return parseDuration(raw);
  } catch (err) {
    if (err instanceof InvalidDurationError) throw usageError(`${command}: --${name}: ${err.message}`);
    throw err;
  }
}

/** Loopback names are one machine: http://localhost:8080 and http://127.0.0.1:8080 are the same server. */
function serverKey(u: URL): string {
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || host === '::1' || /^127\./.test(host);
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  return `${loopback ? 'loopback' : host.toLowerCase()}:${port}`;
}

/**
 * `endpoints set --url` used to be the API's address: a URL on the very server the CLI talks to is refused, so an
 * old script cannot point an endpoint at the API by accident.
 */
export function refuseApiAsReceiver(command: string, url: string, api: URL): void {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return; // the server answers url_invalid
  }
  if (serverKey(target) === serverKey(api))
    throw usageError(
      `${command}: --url ${url} is the Hookline API this command talks to; --url sets the endpoint's receiver URL now, and the API's address is --api-url (or HOOKLINE_URL)`,
    );
}
