// A tenant's ingest limits as a pure decision (docs/rules.md#tenant-limits): which of the events in one accept
// transaction may be stored, given the tenant's shared token bucket and today's count. The store locks both first.
import { type RateBucket, takeTokens } from './rate-bucket.ts';

export const DAY_MS = 86_400_000;

/** The limits that decide an accept (the endpoint cap is checked when an endpoint is created). */
export interface IngestLimitValues {
  eventsPerS: number | null;
  eventsPerDay: number | null;
  maxPayloadBytes: number | null;
}

export interface IngestItem {
  /** The sender's event id: an item whose id was admitted earlier in the same accept is not new either. */
  key: string;
  /** An event already accepted (an idempotent replay): never charged nor refused. */
  existing: boolean;
  /** The envelope's size. */
  bytes: number;
}

export type IngestRefusal = {
  limit: 'rate' | 'daily' | 'payload';
  /** The limit that refused: events per second, events per day, or bytes. */
  max: number;
  /** When asking again can succeed (0: never, for a payload over the cap). */
  retryAfterMs: number;
};

export interface TenantAdmission {
  /** One per item, in order: null when it may be stored. */
  verdicts: Array<IngestRefusal | null>;
  /** The bucket after the admitted items took their tokens (null when the tenant has no rate limit). */
  bucket: RateBucket | null;
  /** New items admitted: what today's count grows by. */
  admitted: number;
}

/** The UTC midnight at or before `now`. */
export const utcDay = (now: number): number => now - (((now % DAY_MS) + DAY_MS) % DAY_MS);

/** A bucket holds one second's worth of events (at least one), so a client may send a second's events at once. */
export const ingestBurst = (eventsPerS: number): number => Math.max(1, Math.ceil(eventsPerS));

/**
 * In order, each new item (neither accepted before nor admitted earlier in this accept) is refused when its envelope is over the payload cap (413), when today's count has reached
 * the daily limit (429 until the next UTC midnight), or when the bucket holds no whole token (429 until the next);
 * otherwise it takes one token and one unit of the day. Items already accepted pass untouched.
 */
export function admitTenantEvents(
  items: readonly IngestItem[],
  limits: IngestLimitValues,
  state: { bucket: RateBucket | null; eventsToday: number },
  now: number,
): TenantAdmission {
  let bucket = state.bucket;
  let admitted = 0;
  const taken = new Set<string>();
  const verdicts = items.map((item): IngestRefusal | null => {
    if (item.existing || taken.has(item.key)) return null;
    if (limits.maxPayloadBytes !== null && item.bytes > limits.maxPayloadBytes)
      return { limit: 'payload', max: limits.maxPayloadBytes, retryAfterMs: 0 };
    if (limits.eventsPerDay !== null && state.eventsToday + admitted >= limits.eventsPerDay)
      return { limit: 'daily', max: limits.eventsPerDay, retryAfterMs: utcDay(now) + DAY_MS - now };
    if (limits.eventsPerS !== null) {
      const grant = takeTokens(bucket, limits.eventsPerS, now, 1, ingestBurst(limits.eventsPerS));
      bucket = grant.bucket;
      if (grant.granted === 0)
        return { limit: 'rate', max: limits.eventsPerS, retryAfterMs: Math.max(1, grant.blockedUntil - now) };
    }
    admitted++;
    taken.add(item.key);
    return null;
  });
  return { verdicts, bucket: limits.eventsPerS === null ? null : bucket, admitted };
}

/** The quota notice a count crossing into [80 %, 100 %] or to 100 % earns, above the one already written today. */
export function quotaNotice(eventsToday: number, eventsPerDay: number | null, notified: number): 80 | 100 | null {
  if (eventsPerDay === null || eventsPerDay === 0) return null;
  const percent = (eventsToday * 100) / eventsPerDay;
  const reached = percent >= 100 ? 100 : percent >= 80 ? 80 : null;
  return reached !== null && reached > notified ? reached : null;
}
