// node:util parseArgs with one-line usage errors, plus readers for the values commands take (numbers, JSON, times).
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { InvalidDurationError, parseDuration } from '@hookline/core/config';
import { usageError } from './cli-error.ts';

type Options = NonNullable<ParseArgsConfig['options']>;
/** parseArgs' result for these options, named so that the build's declarations can spell it. */
type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: boolean; strict: true }>
>;

/**
 * Strict parsing: unknown options, missing values and unexpected positionals are usage errors (exit 2).
 * `positionals` is the most positionals the command takes.
 */
export function parseCommandArgs<const O extends Options>(
  command: string,
  args: string[],
  options: O,
  positionals = 0,
): Parsed<O> {
  let parsed: Parsed<O>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: positionals > 0, strict: true });
  } catch (err) {
    throw usageError(`${command}: ${firstSentence(err)}; see 'hookline ${command} --help'`);
  }
  if (parsed.positionals.length > positionals) {
    throw usageError(
      `${command}: unexpected argument '${parsed.positionals[positionals]}'; see 'hookline ${command} --help'`,
    );
  }
  return parsed;
}

// node's messages go on with advice about '--'; the first sentence is the useful part.
function firstSentence(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const first = message.split(/\.\s/)[0].replace(/\.$/, '');
  return first.charAt(0).toLowerCase() + first.slice(1);
}

export function requireValue(command: string, name: string, value: string | undefined): string {
  if (value === undefined || value === '')
    throw usageError(`${command}: --${name} is required; see 'hookline ${command} --help'`);
  return value;
}

export function requirePositional(command: string, what: string, value: string | undefined): string {
  if (value === undefined || value === '')
    throw usageError(`${command}: missing <${what}>; see 'hookline ${command} --help'`);
  return value;
}

export function intValue(
  command: string,
  name: string,
  raw: string,
  range: { min?: number; max?: number } = {},
): number {
  const n = Number(raw);
  const min = range.min ?? Number.MIN_SAFE_INTEGER;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    const bounds = range.max === undefined ? `at least ${min}` : `from ${min} to ${max}`;
    throw usageError(`${command}: --${name} must be a whole number ${bounds}, got '${raw}'`);
  }
  return n;
}

export function jsonValue(command: string, name: string, raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch (err) {
    throw usageError(`${command}: --${name} is not valid JSON (${(err as Error).message})`);
  }
}

/** An instant as ISO-8601, from ISO-8601 itself or a duration meaning "that long ago" ('2h', '30m'). */
export function timeValue(command: string, name: string, raw: string, now: number): string {
  try {
    return new Date(now - parseDuration(raw)).toISOString();
  } catch (err) {
    if (!(err instanceof InvalidDurationError)) throw err;
  }
  const ms = /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : Number.NaN;
  if (!Number.isFinite(ms))
    throw usageError(
      `${command}: --${name} must be an ISO-8601 time (2026-01-05T12:00:00Z) or a duration ago (2h), got '${raw}'`,
    );
  return new Date(ms).toISOString();
}
