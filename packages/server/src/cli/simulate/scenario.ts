// A simulation scenario file: when events arrive and how the receiver behaves over time; validated with named paths.
import {
  InvalidDurationError,
  MAX_ORDERING_KEY_BYTES,
  PolicyConfigError,
  PolicyRegistry,
  parseDuration,
} from '@hookline/core';
import { parseResponse, type ScriptedResponse } from '@hookline/core/simulation';
import { usageError } from '../cli-error.ts';

export interface ScenarioEvents {
  readonly atMs: number;
  readonly count: number;
  /** Pause between the group's events; 0 puts them all at `atMs`. */
  readonly everyMs: number;
  readonly type: string;
  readonly data: unknown;
  /** Ordering keys cycled over the group's events (docs/rules.md#ordered-delivery); absent: the events carry none. */
  readonly orderingKeys?: readonly string[];
}

export interface ReceiverRule {
  readonly fromMs: number;
  /** Exclusive; null means "from then on". */
  readonly toMs: number | null;
  /** Cycled per request that this rule answers. */
  readonly respond: readonly ScriptedResponse[];
}

/** What an operator does to the endpoint at a time: PATCH status=paused / active, or a window replay (defaults). */
export interface ScenarioAction {
  readonly atMs: number;
  readonly do: 'pause' | 'reactivate' | 'replay';
  /** replay only: also select `skipped` deliveries. */
  readonly includeSkipped: boolean;
  /** reactivate only: PATCH with catch_up, replaying what the pause missed (docs/rules.md#catch-up). */
  readonly catchUp: boolean;
}

export interface Scenario {
  readonly policy: string;
  readonly policies: PolicyRegistry;
  readonly seed: number | undefined;
  readonly events: readonly ScenarioEvents[];
  readonly receiver: readonly ReceiverRule[];
  /** In time order; at one time, in file order and before that time's events. */
  readonly actions: readonly ScenarioAction[];
  /** Set when some event carries an ordering key: the endpoint orders by key, with this on_failure. */
  readonly ordering: { readonly onFailure: 'continue' | 'block' } | null;
  /** The endpoint's rate limit (docs/rules.md#rate-limit) and cap; null: none / the policy's. */
  readonly limits: { readonly rateLimitPerS: number | null; readonly maxConcurrency: number | null };
}

/** Bounds a scenario so a typo (count: 1e9) fails fast instead of running for hours. */
export const MAX_SCENARIO_EVENTS = 50_000;

const TOP_KEYS = [
  'policy',
  'policies',
  'seed',
  'events',
  'receiver',
  'actions',
  'on_failure',
  'description',
  'rate_limit_per_s',
  'max_concurrency',
];
const ACTION_KEYS = ['at', 'do', 'include_skipped', 'catch_up'];
const ACTIONS = ['pause', 'reactivate', 'replay'] as const;
const EVENT_KEYS = ['at', 'count', 'every', 'type', 'data', 'ordering_key'];
const RULE_KEYS = ['from', 'to', 'respond'];

/** Parses scenario JSON (already read from `file`); throws a usage error naming the path of the first problem. */
export function parseScenario(json: unknown, file: string): Scenario {
  const bad = (path: string, message: string) => usageError(`scenario ${file}: ${path}: ${message}`);
  const top = object(json, '(top)', TOP_KEYS, bad);

  let policies: PolicyRegistry;
  try {
    policies = PolicyRegistry.fromConfig(top.policies, 'policies');
  } catch (err) {
    if (err instanceof PolicyConfigError) throw usageError(`scenario ${file}: ${err.message}`);
    throw err;
  }
  const policy = top.policy ?? 'standard';
  if (typeof policy !== 'string' || !policies.has(policy))
    throw bad('policy', `unknown policy ${JSON.stringify(policy)}; known: ${policies.names().join(', ')}`);
  let seed: number | undefined;
  if (top.seed !== undefined) {
    if (typeof top.seed !== 'number' || !Number.isSafeInteger(top.seed)) throw bad('seed', 'must be a whole number');
    seed = top.seed;
  }

  if (!Array.isArray(top.events) || top.events.length === 0)
    throw bad('events', 'must be a non-empty array like [{"at":"0s","count":10,"type":"order.paid","data":{}}]');
  let total = 0;
  const events = top.events.map((raw, i): ScenarioEvents => {
    const at = `events[${i}]`;
    const e = object(raw, at, EVENT_KEYS, bad);
    const count = e.count === undefined ? 1 : e.count;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1)
      throw bad(`${at}.count`, 'must be a whole number of at least 1');
    total += count;
    if (typeof e.type !== 'string' || e.type === '')
      throw bad(`${at}.type`, 'must be an event type like "payment.status_changed"');
    let orderingKeys: string[] | null = null;
    if (e.ordering_key !== undefined) {
      const keys = Array.isArray(e.ordering_key) ? e.ordering_key : [e.ordering_key];
      const ok =
        keys.length > 0 &&
        keys.every((k) => typeof k === 'string' && k !== '' && Buffer.byteLength(k) <= MAX_ORDERING_KEY_BYTES);
      if (!ok)
        throw bad(
          `${at}.ordering_key`,
          `must be a key (at most ${MAX_ORDERING_KEY_BYTES} bytes) or a non-empty list of keys cycled over the group's events`,
        );
      orderingKeys = keys as string[];
    }
    return {
      atMs: e.at === undefined ? 0 : duration(e.at, `${at}.at`, bad),
      count,
      everyMs: e.every === undefined ? 0 : duration(e.every, `${at}.every`, bad),
      type: e.type,
      data: e.data === undefined ? {} : e.data,
      ...(orderingKeys ? { orderingKeys } : {}),
    };
  });
  if (total > MAX_SCENARIO_EVENTS)
    throw bad('events', `${total} events in all; a scenario holds at most ${MAX_SCENARIO_EVENTS}`);

  const rawRules = top.receiver ?? [];
  if (!Array.isArray(rawRules))
    throw bad(
      'receiver',
      'must be an array like [{"from":"0s","to":"2h","respond":"503"},{"from":"2h","respond":"200"}]',
    );
  const receiver = rawRules.map((raw, i): ReceiverRule => {
    const at = `receiver[${i}]`;
    const r = object(raw, at, RULE_KEYS, bad);
    const fromMs = r.from === undefined ? 0 : duration(r.from, `${at}.from`, bad);
    const toMs = r.to === undefined || r.to === null ? null : duration(r.to, `${at}.to`, bad);
    if (toMs !== null && toMs <= fromMs) throw bad(`${at}.to`, 'must be later than from');
    const list = Array.isArray(r.respond) ? r.respond : [r.respond];
    if (list.length === 0 || r.respond === undefined)
      throw bad(
        `${at}.respond`,
        'is required: a status ("503"), "timeout", "reset", or a list of them cycled per request',
      );
    const respond = list.map((x, j) => {
      const parsed =
        typeof x === 'string' || typeof x === 'number' ? parseResponse(x) : `${JSON.stringify(x)} is not a response`;
      if (typeof parsed === 'string')
        throw bad(Array.isArray(r.respond) ? `${at}.respond[${j}]` : `${at}.respond`, parsed);
      return parsed;
    });
    return { fromMs, toMs, respond };
  });
  const rawActions = top.actions ?? [];
  if (!Array.isArray(rawActions))
    throw bad(
      'actions',
      'must be an array like [{"at":"10m","do":"pause"},{"at":"1h","do":"reactivate"},{"at":"1h","do":"replay"}]',
    );
  const actions = rawActions.map((raw, i): ScenarioAction => {
    const at = `actions[${i}]`;
    const a = object(raw, at, ACTION_KEYS, bad);
    if (typeof a.do !== 'string' || !(ACTIONS as readonly string[]).includes(a.do))
      throw bad(`${at}.do`, `must be one of ${ACTIONS.join(', ')}`);
    if (a.include_skipped !== undefined && typeof a.include_skipped !== 'boolean')
      throw bad(`${at}.include_skipped`, 'must be true or false');
    if (a.include_skipped !== undefined && a.do !== 'replay')
      throw bad(`${at}.include_skipped`, 'goes with "do": "replay" only');
    if (a.catch_up !== undefined && typeof a.catch_up !== 'boolean')
      throw bad(`${at}.catch_up`, 'must be true or false');
    if (a.catch_up !== undefined && a.do !== 'reactivate')
      throw bad(`${at}.catch_up`, 'goes with "do": "reactivate" only');
    return {
      atMs: a.at === undefined ? 0 : duration(a.at, `${at}.at`, bad),
      do: a.do as ScenarioAction['do'],
      includeSkipped: a.include_skipped === true,
      catchUp: a.catch_up === true,
    };
  });
  actions.sort((x, y) => x.atMs - y.atMs); // stable: same-time actions keep file order
  if (top.on_failure !== undefined && top.on_failure !== 'continue' && top.on_failure !== 'block')
    throw bad('on_failure', 'must be "continue" or "block"');
  const keyed = events.some((g) => g.orderingKeys !== undefined);
  if (top.on_failure !== undefined && !keyed) throw bad('on_failure', 'goes with events that carry an ordering_key');
  const ordering = keyed ? { onFailure: (top.on_failure ?? 'continue') as 'continue' | 'block' } : null;
  const whole = (key: string, max: number): number | null => {
    const v = top[key];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max)
      throw bad(key, `must be a whole number from 1 to ${max}`);
    return v;
  };
  const limits = { rateLimitPerS: whole('rate_limit_per_s', 10_000), maxConcurrency: whole('max_concurrency', 1000) };
  return { policy, policies, seed, events, receiver, actions, ordering, limits };
}

/**
 * The receiver's answer picker: the first rule whose [from, to) holds the attempt's time (ms since t = 0) answers,
 * cycling its list per request it answers; a time no rule covers gets 200.
 */
export function receiverPicker(rules: readonly ReceiverRule[]): (tMs: number) => ScriptedResponse {
  const served = rules.map(() => 0);
  return (tMs) => {
    const i = rules.findIndex((r) => tMs >= r.fromMs && (r.toMs === null || tMs < r.toMs));
    if (i < 0) return { kind: 'status', status: 200 };
    const list = rules[i].respond;
    return list[served[i]++ % list.length];
  };
}

type Bad = (path: string, message: string) => Error;

function object(raw: unknown, at: string, keys: readonly string[], bad: Bad): Record<string, unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw bad(at, 'must be an object');
  for (const key of Object.keys(raw))
    if (!keys.includes(key))
      throw bad(`${at === '(top)' ? '' : `${at}.`}${key}`, `unknown key; expected one of ${keys.join(', ')}`);
  return raw as Record<string, unknown>;
}

function duration(raw: unknown, at: string, bad: Bad): number {
  try {
    if (typeof raw !== 'string' && typeof raw !== 'number')
      throw new InvalidDurationError(`must be a duration like "90s" or "2h"`);
    return parseDuration(raw);
  } catch (err) {
    if (err instanceof InvalidDurationError) throw bad(at, err.message);
    throw err;
  }
}
