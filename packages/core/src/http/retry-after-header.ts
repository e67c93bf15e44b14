// The sender's reading of a Retry-After header: the policy's parser, plus a sanity ceiling for absurd values.
import { parseRetryAfter } from '../policy/classify.ts';

/**
 * Sanity ceiling only: the policy caps the wait further (Policy.retryAfter.maxMs); this just keeps a
 * receiver's absurd value (year 9999, 1e20 s) from overflowing timers or dates downstream.
 */
export const MAX_RETRY_AFTER_MS = 30 * 24 * 3600 * 1000;

/** Milliseconds to wait from `nowMs`, clamped to [0, MAX_RETRY_AFTER_MS]; undefined when absent or unreadable. */
export function retryAfterHeaderMs(value: string | string[] | undefined, nowMs: number): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  const ms = parseRetryAfter(raw, nowMs);
  return ms === undefined ? undefined : Math.min(ms, MAX_RETRY_AFTER_MS);
}
