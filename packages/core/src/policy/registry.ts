// Policies by name: the presets plus user policies from config, each validated once with errors that name the path.

import { deepFreeze } from '../deep-freeze.ts';
import { formatDuration, InvalidDurationError, parseDuration } from '../duration.ts';
import { PolicyConfigError } from './config-error.ts';
import { DEFAULT_POLICY, isPresetName, PAYMENTS, PRESETS } from './presets.ts';
import type { BreakerRule, HealthRule, LadderSpec, Policy } from './types.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** A breaker window is minutes long; bounding it bounds the window rows the store keeps (retention purges older). */
export const MAX_BREAKER_WINDOW_MS = 60 * MINUTE;

/** The payments breaker (docs/rules.md#breaker-scope), used when a user policy says `"breaker": true` or leaves fields out.
 * Read from the preset itself (as DEFAULTS.breaker is): defaults.ts sits above the policies and imports them. */
const DEFAULT_BREAKER: BreakerRule = PAYMENTS.breaker as BreakerRule;

/** Every policy a process knows; presets always, user policies added from config. */
export class PolicyRegistry {
  readonly #policies = new Map<string, Policy>();

  constructor(userPolicies: readonly Policy[] = []) {
    for (const policy of Object.values(PRESETS)) this.#policies.set(policy.name, policy);
    userPolicies.forEach((policy, i) => {
      const at = `policies[${i}]`;
      if (this.#policies.has(policy.name)) {
        throw new PolicyConfigError(
          `${at}.name`,
          isPresetName(policy.name)
            ? `"${policy.name}" is a preset; choose another name`
            : `"${policy.name}" is defined twice`,
        );
      }
      checkPolicy(policy, at);
      this.#policies.set(policy.name, deepFreeze(policy));
    });
  }

  /** A registry of the presets plus the policies defined in config (see definePolicies). */
  static fromConfig(json: unknown, path = 'policies'): PolicyRegistry {
    return new PolicyRegistry(definePolicies(json, path));
  }

  get(name: string): Policy | undefined {
    return this.#policies.get(name);
  }

  has(name: string): boolean {
    return this.#policies.has(name);
  }

  /** Presets first, then user policies in the order they were defined. */
  names(): string[] {
    return [...this.#policies.keys()];
  }

  /** The policy a new endpoint gets when it names none. */
  default(): Policy {
    return this.#policies.get(DEFAULT_POLICY) as Policy;
  }
}

/**
 * User policies from config: an array of definitions such as
 * `{"name":"mine","extends":"standard","timeout":"5s","fast":{"delays":["10s","1m"],"maxFailures":3},"jitter":0.1,"clientErrors":"fail"}`.
 * Durations are strings ('15m', '2h30m') or numbers of ms. What a definition leaves out comes from the policy it
 * extends (default: standard; a preset or an earlier definition). A ladder is one thought — delays, budget and
 * window belong together — so a given `fast`/`slow` replaces the inherited ladder whole; `retryAfter`, `breaker`
 * and `health` merge field by field. `null` removes an optional part (`"slow": null`, `"maxAge": null`, `"breaker": null`).
 * Throws PolicyConfigError naming the path of the first problem.
 */
export function definePolicies(json: unknown, path = 'policies'): Policy[] {
  if (json === undefined || json === null) return [];
  if (!Array.isArray(json)) throw new PolicyConfigError(path, 'must be an array of policy definitions');
  const defined = new Map<string, Policy>();
  return json.map((raw, i) => {
    const policy = definePolicy(raw, `${path}[${i}]`, (name) => PRESETS[name] ?? defined.get(name));
    if (defined.has(policy.name))
      throw new PolicyConfigError(`${path}[${i}].name`, `"${policy.name}" is defined twice`);
    defined.set(policy.name, policy);
    return policy;
  });
}

const POLICY_KEYS = [
  'name',
  'extends',
  'timeout',
  'maxConcurrency',
  'jitter',
  'fast',
  'slow',
  'clientErrors',
  'retryAfter',
  'maxAge',
  'breaker',
  'health',
];
const LADDER_KEYS = ['delays', 'maxFailures', 'repeatLast', 'window', 'windowFrom'];
const BREAKER_KEYS = ['scope', 'window', 'minAttempts', 'failureRatio', 'pause', 'maxPause', 'recheck'];
const HEALTH_KEYS = ['pauseAfterFailing', 'suspendAfterConsecutiveFailedEvents', 'pauseOnGone'];

function definePolicy(raw: unknown, at: string, lookup: (name: string) => Policy | undefined): Policy {
  const def = object(raw, at, POLICY_KEYS);
  if (typeof def.name !== 'string' || !/^[a-z][a-z0-9_-]{0,62}$/.test(def.name)) {
    throw new PolicyConfigError(`${at}.name`, 'must be a lowercase name like "my-policy" (letters, digits, - and _)');
  }
  if (isPresetName(def.name))
    throw new PolicyConfigError(`${at}.name`, `"${def.name}" is a preset; choose another name`);
  const parentName = def.extends ?? DEFAULT_POLICY;
  if (typeof parentName !== 'string')
    throw new PolicyConfigError(`${at}.extends`, 'must be the name of a preset or an earlier policy');
  const parent = lookup(parentName);
  if (!parent) {
    throw new PolicyConfigError(
      `${at}.extends`,
      `unknown policy "${parentName}"; presets are ${Object.keys(PRESETS).join(', ')}, or a policy defined above this one`,
    );
  }

  const policy: Policy = {
    name: def.name,
    timeoutMs:
      def.timeout === undefined
        ? parent.timeoutMs
        : duration(def.timeout, `${at}.timeout`, { min: 1, max: 5 * MINUTE }),
    maxConcurrency:
      def.maxConcurrency === undefined
        ? parent.maxConcurrency
        : integer(def.maxConcurrency, `${at}.maxConcurrency`, 1, 1000),
    jitter: def.jitter === undefined ? parent.jitter : jitter(def.jitter, `${at}.jitter`),
    fast: def.fast === undefined ? parent.fast : ladder(def.fast, `${at}.fast`),
    ...optional(
      'slow',
      def.slow === undefined ? parent.slow : def.slow === null ? undefined : ladder(def.slow, `${at}.slow`),
    ),
    clientErrors:
      def.clientErrors === undefined
        ? parent.clientErrors
        : oneOf(def.clientErrors, `${at}.clientErrors`, ['retry', 'fail', 'slow_for_money'] as const),
    retryAfter:
      def.retryAfter === undefined
        ? parent.retryAfter
        : retryAfter(def.retryAfter, `${at}.retryAfter`, parent.retryAfter),
    ...optional(
      'maxAgeMs',
      def.maxAge === undefined
        ? parent.maxAgeMs
        : def.maxAge === null
          ? undefined
          : duration(def.maxAge, `${at}.maxAge`, { min: 1 }),
    ),
    ...optional(
      'breaker',
      def.breaker === undefined ? parent.breaker : breaker(def.breaker, `${at}.breaker`, parent.breaker),
    ),
    health: def.health === undefined ? parent.health : health(def.health, `${at}.health`, parent.health),
  };
  checkPolicy(policy, at);
  return deepFreeze(policy);
}

/**
 * Rules across fields that a Policy's type cannot express; throws PolicyConfigError at `at`.
 * Every policy in a registry has passed this, so decide() never meets a ladder it cannot run.
 */
export function checkPolicy(policy: Policy, at = policy.name): void {
  checkLadder(policy.fast, `${at}.fast`, policy);
  if (policy.slow) checkLadder(policy.slow, `${at}.slow`, policy);
  if (policy.fast.windowFrom === 'ladder_start') {
    throw new PolicyConfigError(
      `${at}.fast.windowFrom`,
      '"ladder_start" applies to the slow ladder only; use "first_attempt" or "created"',
    );
  }
  if (policy.clientErrors === 'slow_for_money' && !policy.slow) {
    throw new PolicyConfigError(
      `${at}.clientErrors`,
      '"slow_for_money" needs a slow ladder; add "slow" or choose "retry" or "fail"',
    );
  }
  if (policy.breaker && policy.breaker.maxPauseMs < policy.breaker.pauseMs) {
    throw new PolicyConfigError(`${at}.breaker.maxPause`, 'must be at least breaker.pause');
  }
}

function checkLadder(spec: LadderSpec, at: string, policy: Policy): void {
  if (spec.delaysMs.length === 0) throw new PolicyConfigError(`${at}.delays`, 'must list at least one delay');
  if (spec.maxFailures !== undefined && !spec.repeatLast && spec.maxFailures > spec.delaysMs.length + 1) {
    throw new PolicyConfigError(
      `${at}.maxFailures`,
      `${spec.maxFailures} failures need at least ${spec.maxFailures - 1} delays (there are ${spec.delaysMs.length}); add delays or set repeatLast`,
    );
  }
  if (
    spec.repeatLast &&
    spec.maxFailures === undefined &&
    spec.windowMs === undefined &&
    policy.maxAgeMs === undefined
  ) {
    throw new PolicyConfigError(
      `${at}.repeatLast`,
      "would retry forever; set maxFailures, a window, or the policy's maxAge",
    );
  }
}

function ladder(raw: unknown, at: string): LadderSpec {
  const def = object(raw, at, LADDER_KEYS);
  if (!Array.isArray(def.delays) || def.delays.length === 0) {
    throw new PolicyConfigError(`${at}.delays`, 'is required: a non-empty array of durations like ["30s", "5m", "1h"]');
  }
  if (def.delays.length > 100)
    throw new PolicyConfigError(`${at}.delays`, 'must list at most 100 delays; use repeatLast for a long tail');
  const delays = def.delays;
  return {
    delaysMs: delays.map((d, i) => duration(d, `${at}.delays[${i}]`, { min: 1, max: 30 * DAY })),
    ...optional(
      'maxFailures',
      def.maxFailures === undefined ? undefined : integer(def.maxFailures, `${at}.maxFailures`, 1, 1000),
    ),
    ...optional('repeatLast', def.repeatLast === undefined ? undefined : boolean(def.repeatLast, `${at}.repeatLast`)),
    ...optional('windowMs', def.window === undefined ? undefined : duration(def.window, `${at}.window`, { min: 1 })),
    ...optional(
      'windowFrom',
      def.windowFrom === undefined
        ? undefined
        : oneOf(def.windowFrom, `${at}.windowFrom`, ['created', 'first_attempt', 'ladder_start'] as const),
    ),
  };
}

function retryAfter(raw: unknown, at: string, inherited: Policy['retryAfter']): Policy['retryAfter'] {
  const def = object(raw, at, ['honour', 'max']);
  return {
    honour: def.honour === undefined ? inherited.honour : boolean(def.honour, `${at}.honour`),
    maxMs: def.max === undefined ? inherited.maxMs : duration(def.max, `${at}.max`, { min: 0, max: 30 * DAY }),
  };
}

function breaker(raw: unknown, at: string, inherited: BreakerRule | undefined): BreakerRule | undefined {
  if (raw === null || raw === false) return undefined;
  if (raw === true) return inherited ?? DEFAULT_BREAKER;
  const def = object(raw, at, BREAKER_KEYS);
  const base = inherited ?? DEFAULT_BREAKER;
  return {
    scope: def.scope === undefined ? base.scope : oneOf(def.scope, `${at}.scope`, ['tenant', 'endpoint'] as const),
    windowMs:
      def.window === undefined
        ? base.windowMs
        : duration(def.window, `${at}.window`, { min: 1_000, max: MAX_BREAKER_WINDOW_MS }),
    minAttempts:
      def.minAttempts === undefined ? base.minAttempts : integer(def.minAttempts, `${at}.minAttempts`, 1, 1_000_000),
    failureRatio: def.failureRatio === undefined ? base.failureRatio : ratio(def.failureRatio, `${at}.failureRatio`),
    pauseMs: def.pause === undefined ? base.pauseMs : duration(def.pause, `${at}.pause`, { min: 1_000 }),
    maxPauseMs: def.maxPause === undefined ? base.maxPauseMs : duration(def.maxPause, `${at}.maxPause`, { min: 1_000 }),
    recheckMs: def.recheck === undefined ? base.recheckMs : duration(def.recheck, `${at}.recheck`, { min: 100 }),
  };
}

function health(raw: unknown, at: string, inherited: HealthRule): HealthRule {
  const def = object(raw, at, HEALTH_KEYS);
  const pauseAfter =
    def.pauseAfterFailing === undefined
      ? inherited.pauseAfterFailingMs
      : def.pauseAfterFailing === null
        ? undefined
        : duration(def.pauseAfterFailing, `${at}.pauseAfterFailing`, { min: 1 });
  const suspendAfter =
    def.suspendAfterConsecutiveFailedEvents === undefined
      ? inherited.suspendAfterConsecutiveFailedEvents
      : def.suspendAfterConsecutiveFailedEvents === null
        ? undefined
        : integer(def.suspendAfterConsecutiveFailedEvents, `${at}.suspendAfterConsecutiveFailedEvents`, 1, 1_000_000);
  return {
    ...optional('pauseAfterFailingMs', pauseAfter),
    ...optional('suspendAfterConsecutiveFailedEvents', suspendAfter),
    pauseOnGone: def.pauseOnGone === undefined ? inherited.pauseOnGone : boolean(def.pauseOnGone, `${at}.pauseOnGone`),
  };
}

// ---- field readers: each names the path and says what would have been valid ----

function object(raw: unknown, at: string, keys: readonly string[]): Record<string, unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new PolicyConfigError(at, 'must be an object');
  for (const key of Object.keys(raw)) {
    if (!keys.includes(key))
      throw new PolicyConfigError(`${at}.${key}`, `unknown key; expected one of ${keys.join(', ')}`);
  }
  return raw as Record<string, unknown>;
}

function duration(raw: unknown, at: string, range: { min: number; max?: number }): number {
  let ms: number;
  try {
    ms = parseDuration(raw as string | number);
  } catch (err) {
    if (err instanceof InvalidDurationError) throw new PolicyConfigError(at, err.message);
    throw err;
  }
  if (ms < range.min)
    throw new PolicyConfigError(
      at,
      range.min === 1 ? 'must be more than zero' : `must be at least ${formatDuration(range.min)}`,
    );
  if (range.max !== undefined && ms > range.max)
    throw new PolicyConfigError(at, `must be at most ${formatDuration(range.max)}`);
  return ms;
}

function integer(raw: unknown, at: string, min: number, max: number): number {
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < min || raw > max) {
    throw new PolicyConfigError(at, `must be a whole number from ${min} to ${max}`);
  }
  return raw;
}

function jitter(raw: unknown, at: string): number {
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0 || raw >= 1) {
    throw new PolicyConfigError(at, 'must be a fraction from 0 up to (not including) 1, e.g. 0.2 for ±20 %');
  }
  return raw;
}

function ratio(raw: unknown, at: string): number {
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw <= 0 || raw > 1) {
    throw new PolicyConfigError(at, 'must be a fraction above 0 and at most 1, e.g. 0.8');
  }
  return raw;
}

function boolean(raw: unknown, at: string): boolean {
  if (typeof raw !== 'boolean') throw new PolicyConfigError(at, 'must be true or false');
  return raw;
}

function oneOf<T extends string>(raw: unknown, at: string, allowed: readonly T[]): T {
  if (typeof raw !== 'string' || !(allowed as readonly string[]).includes(raw)) {
    throw new PolicyConfigError(at, `must be one of ${allowed.map((a) => `"${a}"`).join(', ')}`);
  }
  return raw as T;
}

/** `{ key: value }` when value is defined, `{}` otherwise: optional fields stay absent rather than `undefined`. */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
