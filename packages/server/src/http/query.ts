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

function dateExists(value: string): boolean {
  const [y, m, d] = value.slice(0, 10).split('-').map(Number);
  const probe = new Date(0);
  probe.setUTCFullYear(y, m - 1, d); // not Date.UTC, which reads years 0–99 as 1900–1999
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d;
}

/** Cursors are the id of the last item of the previous page. */
export function parseCursor(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (!/^[a-z]{2,4}_[0-9A-Z]{26}$/.test(value)) throw fail('invalid_cursor');
  return value;
}
