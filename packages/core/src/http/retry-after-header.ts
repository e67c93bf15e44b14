// The sender's own Retry-After reader (seconds or HTTP date); policy/classify.ts has the shared one — the lead will dedupe.
/**
 * Sanity ceiling only: the policy caps the wait further (Policy.retryAfter.maxMs); this just keeps a
 * receiver's absurd value (year 9999, 1e20 s) from overflowing timers or dates downstream.
 */
export const MAX_RETRY_AFTER_MS = 30 * 24 * 3600 * 1000;

const DELTA_SECONDS = /^\s*(\d{1,12})\s*$/;
// IMF-fixdate, RFC 850 and asctime all open with a day name; refusing anything else keeps Date.parse's
// leniency ("5", "-1") from turning junk into a date.
const HTTP_DATE = /^\s*[A-Za-z]{3}/;

/** Milliseconds to wait from `nowMs`, clamped to [0, MAX_RETRY_AFTER_MS]; undefined when absent or unreadable. */
export function retryAfterHeaderMs(value: string | string[] | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const delta = DELTA_SECONDS.exec(raw);
  let ms: number;
  if (delta) ms = Number(delta[1]) * 1000;
  else if (HTTP_DATE.test(raw)) {
    const at = Date.parse(raw);
    if (Number.isNaN(at)) return undefined;
    ms = at - nowMs;
  } else return undefined;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}
