// What an HTTP response means for retrying (docs/rules.md#outcome-classes), and when a `Retry-After` header asks us to come back.
import type { OutcomeClass } from './types.ts';

/**
 * 2xx success; 5xx and 429 delivery failure; 3xx (never followed) and other 4xx client error.
 * Anything else (1xx, codes outside 100–599) is a receiver that did not answer properly: a delivery failure,
 * so it retries rather than being taken as a deliberate refusal.
 * Timeouts and network errors have no status and are always delivery failures; the sender classes those itself.
 */
export function classifyStatus(status: number): OutcomeClass {
  if (!Number.isInteger(status)) return 'delivery_failure';
  if (status >= 200 && status <= 299) return 'success';
  if (status === 429) return 'delivery_failure';
  if (status >= 500 && status <= 599) return 'delivery_failure';
  if (status >= 300 && status <= 499) return 'client_error';
  return 'delivery_failure';
}

/** Retry-After counts only on these statuses (docs/rules.md#retry-after). */
export function retryAfterApplies(status: number | undefined): boolean {
  return status === 429 || status === 503;
}

// RFC 9110 §5.6.7: senders use IMF-fixdate; recipients must also accept RFC 850 and asctime dates.
const IMF_FIXDATE = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC_850 = /^[A-Za-z]{6,9}, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const ASCTIME = /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

/**
 * Milliseconds from `nowMs` that a `Retry-After` value asks for: delta seconds ('120') or an HTTP date.
 * A date already past means "now" (0). Negative, fractional or unparseable values give undefined:
 * the header is then ignored, never guessed at. `Date.parse` alone is too lenient ('-5' is a year).
 */
export function parseRetryAfter(headerValue: string | undefined, nowMs: number): number | undefined {
  if (headerValue === undefined) return undefined;
  const value = headerValue.trim();
  if (/^\d+$/.test(value)) {
    const ms = Number(value) * 1000;
    return Number.isSafeInteger(ms) ? ms : undefined;
  }
  let at: number;
  if (IMF_FIXDATE.test(value) || RFC_850.test(value)) at = Date.parse(value);
  // asctime carries no zone but means GMT; say so, or Date.parse would read it as local time.
  else if (ASCTIME.test(value)) at = Date.parse(`${value} GMT`);
  else return undefined;
  if (!Number.isFinite(at)) return undefined;
  return Math.max(0, at - nowMs);
}
