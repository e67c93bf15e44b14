// Reads query and body values that JSON Schema cannot fully check: ISO-8601 times and cursors.
import { type ErrorDetail, fail } from '@hookline/core';
import { fieldError } from './validation.ts';

// Date-only or date-time with an optional zone; Date.parse alone would accept "5" or "June".
const ISO = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Milliseconds from an ISO-8601 string, or undefined when absent; 400 naming the field (`in`, JSON Pointer) otherwise. */
export function parseTime(value: unknown, where: ErrorDetail['in'], path: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const ms = typeof value === 'string' && ISO.test(value) ? Date.parse(value) : NaN;
  // Date.parse also rolls 2026-02-31 over to March 3; a date that does not exist is refused.
  if (!Number.isFinite(ms) || !dateExists(value as string))
    throw fieldError(where, path, 'must be an ISO-8601 time like 2026-01-05T12:00:00Z');
  return ms;
}

// Days in each month of a common year; February of a leap year has 29.
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Does the `YYYY-MM-DD` at the start of `value` (already matched by ISO) name a day of the proleptic Gregorian calendar? */
function dateExists(value: string): boolean {
  // Digits read in place: a split and a Date per call were the larger part of an accepted event's time check.
  const digit = (i: number) => value.charCodeAt(i) - 48;
  const y = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3);
  const m = digit(5) * 10 + digit(6);
  const d = digit(8) * 10 + digit(9);
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= (m === 2 && leap ? 29 : MONTH_DAYS[m - 1]);
}

/** Cursors are the id of the last item of the previous page. */
export function parseCursor(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (!/^[a-z]{2,4}_[0-9A-Z]{26}$/.test(value)) throw fail('invalid_cursor');
  return value;
}
