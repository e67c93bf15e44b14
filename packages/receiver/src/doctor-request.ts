// Tells a `hookline doctor` check from real traffic (docs/rules.md#tool-doctor): answered as real, never run as work.
import { type HeaderSource, readHeader } from './headers.ts';

/** The header every doctor request carries, value `1`. */
export const DOCTOR_HEADER = 'x-webhook-doctor';
/** The prefix of every event id (and delivery id) the doctor sends. */
export const DOCTOR_ID_PREFIX = 'doctor_';

/**
 * True for a request `hookline doctor` sent: `X-Webhook-Doctor: 1`, or an event id starting `doctor_`. The header is
 * not signed, so a forged one can only make a receiver skip that copy: nothing is recorded, and the sender's own
 * delivery of the same event still runs.
 *
 * @example
 * isDoctorRequest(req.headers, verified.eventId) // true for the doctor's checks: answer them, do not run them
 */
export function isDoctorRequest(headers: HeaderSource, eventId: string | undefined): boolean {
  if (readHeader(headers, DOCTOR_HEADER)?.trim() === '1') return true;
  return eventId?.startsWith(DOCTOR_ID_PREFIX) === true;
}
