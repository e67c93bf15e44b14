// Human durations for config and output: '2h30m' ⇄ milliseconds, so policies read like docs/rules.md.

const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000, ms: 1 } as const;
type Unit = keyof typeof UNIT_MS;
const UNIT_ORDER: readonly Unit[] = ['d', 'h', 'm', 's', 'ms'];

/** Thrown for input that is not a duration; the message says what was wrong and shows a valid example. */
export class InvalidDurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidDurationError';
  }
}

// `ms` must come before `m` in the alternation, or '500ms' would read as 500 minutes and a stray 's'.
const PART = /(\d+(?:\.\d+)?)\s*(ms|d|h|m|s)/y;

/**
 * Milliseconds from '500ms', '30s', '15m', '1h', '2h30m', '1h 15m', '1.5h', '5d', or a number of ms.
 * Units go largest first, each at most once; a bare number in a string is refused because
 * '500' could mean seconds or milliseconds.
 */
export function parseDuration(input: string | number): number {
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input < 0) {
      throw new InvalidDurationError(`duration must be a non-negative number of milliseconds, got ${input}`);
    }
    return Math.round(input);
  }
  if (typeof input !== 'string') {
    throw new InvalidDurationError(
      `duration must be a string like '15m' or a number of milliseconds, got ${describe(input)}`,
    );
  }
  const text = input.trim();
  if (text === '') throw new InvalidDurationError(`duration is empty; write e.g. '30s', '15m' or '2h30m'`);
  if (/^\d+(?:\.\d+)?$/.test(text)) {
    throw new InvalidDurationError(`duration '${input}' has no unit; write e.g. '${text}ms' or '${text}s'`);
  }
  let total = 0;
  let lastRank = -1;
  let pos = 0;
  while (pos < text.length) {
    PART.lastIndex = pos;
    const match = PART.exec(text);
    if (!match) {
      throw new InvalidDurationError(
        `duration '${input}' is not valid at '${text.slice(pos)}'; use numbers with units d, h, m, s, ms, e.g. '2h30m'`,
      );
    }
    const unit = match[2] as Unit;
    const rank = UNIT_ORDER.indexOf(unit);
    if (rank <= lastRank) {
      throw new InvalidDurationError(
        `duration '${input}' must list units largest first, each once (e.g. '1h30m', not '30m1h')`,
      );
    }
    lastRank = rank;
    total += Number(match[1]) * UNIT_MS[unit];
    pos = PART.lastIndex;
    while (text[pos] === ' ') pos++;
  }
  if (!Number.isSafeInteger(Math.round(total))) throw new InvalidDurationError(`duration '${input}' is too large`);
  return Math.round(total);
}

// Up to three days the hours read better in retry timelines ('48h', '27h 35m'); beyond that days do ('5d', '30d').
const DAYS_FROM_MS = 3 * UNIT_MS.d;

/** A compact human string: 90_000 → '1m 30s', 4_500_000 → '1h 15m', 172_800_000 → '48h', 2_592_000_000 → '30d'. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 0) return `-${formatDuration(-ms)}`;
  let rest = Math.round(ms);
  if (rest === 0) return '0s';
  const parts: string[] = [];
  for (const unit of UNIT_ORDER) {
    if (unit === 'd' && rest < DAYS_FROM_MS) continue;
    const n = Math.floor(rest / UNIT_MS[unit]);
    if (n > 0) {
      parts.push(`${n}${unit}`);
      rest -= n * UNIT_MS[unit];
    }
  }
  return parts.join(' ');
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
