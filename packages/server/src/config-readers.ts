// Reads configuration from where it comes from (a JSON file, HOOKLINE_* variables, flags) and checks one value at a
// time, in its typed form or the string form the environment and flags give; every refusal is a ConfigError.
// Core's modules by path, not its index: the command line's client config uses these readers and should not load
// the engine.
import { existsSync, readFileSync } from 'node:fs';
import { InvalidDurationError, parseDuration } from '@hookline/core/config';
import { ConfigError } from './config-error.ts';

/** One source's settings by key; a nested key (`smtp.host`) arrives as an object under its top key. */
export type ConfigLayer = Record<string, unknown>;

/** A JSON config file: an object whose keys are all in `keys`. */
export function readConfigFile(path: string, keys: readonly string[]): ConfigLayer {
  if (!existsSync(path)) throw new ConfigError('config', `file ${path} does not exist`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError('config', `file ${path} is not valid JSON (${(err as Error).message})`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw new ConfigError('config', `file ${path} must hold a JSON object`);
  for (const k of Object.keys(json)) {
    if (!keys.includes(k)) throw new ConfigError(k, `unknown key in ${path}; expected one of ${keys.join(', ')}`);
  }
  return json as ConfigLayer;
}

/**
 * The variables of `table` (name → key, `top.sub` for a nested key) set in `env`; an empty one counts as unset. The
 * values of `jsonKeys` are parsed as JSON, the rest stay strings for the value readers below.
 */
export function readEnv(
  env: Readonly<Record<string, string | undefined>>,
  table: Readonly<Record<string, string>>,
  jsonKeys: readonly string[] = [],
): ConfigLayer {
  const out: ConfigLayer = {};
  for (const [name, key] of Object.entries(table)) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    let value: unknown = raw;
    if (jsonKeys.includes(key)) {
      try {
        value = JSON.parse(raw);
      } catch {
        throw new ConfigError(key, `${name} must be JSON`);
      }
    }
    const [top, sub] = key.split('.');
    if (sub) out[top] = { ...((out[top] as object) ?? {}), [sub]: value };
    else out[top] = value;
  }
  return out;
}

/** Flags by camelCase key: `--database-url` and `databaseUrl` are the same flag. */
export function normaliseKeys(argv: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(argv)) out[k.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = v;
  return out;
}

// ---- one value: each reader accepts the typed value or its string form (env, flags) ----

export function str(v: unknown, key: string): string {
  if (typeof v !== 'string') throw new ConfigError(key, 'must be a string');
  return v;
}
export function optStr(v: unknown, key: string): string | null {
  return v === null || v === undefined ? null : str(v, key);
}
export function int(v: unknown, key: string, min: number, max: number): number {
  const n = typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max)
    throw new ConfigError(key, `must be a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`);
  return n;
}
export function bool(v: unknown, key: string): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(s)) return true;
    if (['0', 'false', 'no', 'off'].includes(s)) return false;
  }
  throw new ConfigError(key, `must be true or false, got ${JSON.stringify(v)}`);
}
export function oneOf<T extends string>(v: unknown, key: string, allowed: readonly T[]): T {
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v))
    throw new ConfigError(key, `must be one of ${allowed.join(', ')}, got ${JSON.stringify(v)}`);
  return v as T;
}
export function duration(v: string, key: string): number {
  try {
    return parseDuration(v);
  } catch (err) {
    if (err instanceof InvalidDurationError) throw new ConfigError(key, err.message);
    throw err;
  }
}
