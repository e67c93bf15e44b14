// Reads query and body values that JSON Schema cannot fully check: ISO-8601 times and cursors.
import { HooklineError } from '@hookline/core';

// Date-only or date-time with an optional zone; Date.parse alone would accept "5" or "June".
const ISO = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Milliseconds from an ISO-8601 string, or undefined when absent; 400 naming `field` otherwise. */
export function parseTime(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const ms = typeof value === 'string' && ISO.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw new HooklineError('invalid_request', { detail: `${field} must be an ISO-8601 time like 2026-01-05T12:00:00Z` });
  return ms;
}

/** Cursors are the id of the last item of the previous page. */
export function parseCursor(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (!/^[a-z]{2,4}_[0-9A-Z]{26}$/.test(value)) throw new HooklineError('invalid_cursor');
  return value;
}
