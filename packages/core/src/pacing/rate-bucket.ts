// The token bucket of an endpoint's rate limit (docs/rules.md#rate-limit): how many of a claim's deliveries may go now.
// A pure function of the bucket row; the store locks that row inside the claim, so every worker shares one bucket.

export interface RateBucket {
  /** Whole and fractional tokens left when it was last written. */
  tokens: number;
  refilledAt: number;
}

export interface RateGrant {
  /** How many of the wanted deliveries may be sent. */
  granted: number;
  bucket: RateBucket;
  /** When the next whole token is due while the bucket is empty (0: it is not empty): claims skip the endpoint until then. */
  blockedUntil: number;
}

/** The bucket's size: a tenth of a second's worth, at least one, so sends are paced, not bunched at each second's start. */
export function rateBurst(ratePerS: number): number {
  return Math.max(1, Math.ceil(ratePerS / 10));
}

/**
 * Refills the bucket for the time since it was last written (never beyond its size, `burst`; a clock behind the
 * row's adds nothing), then grants at most the whole tokens it holds. Over any span of `t` ms at most
 * `burst + ratePerS · t / 1000` are granted.
 */
export function takeTokens(
  bucket: RateBucket | null,
  ratePerS: number,
  now: number,
  wanted: number,
  burst = rateBurst(ratePerS),
): RateGrant {
  const at = bucket ? Math.max(bucket.refilledAt, now) : now;
  const refill = bucket ? (Math.max(0, now - bucket.refilledAt) * ratePerS) / 1000 : burst;
  const available = Math.min(burst, (bucket?.tokens ?? 0) + refill);
  // A hair of slack for float sums (0.1 + 0.2): a token that is whole in decimal is whole here.
  const granted = Math.max(0, Math.min(wanted, Math.floor(available + 1e-9)));
  const tokens = Math.max(0, available - granted);
  const blockedUntil = tokens + 1e-9 >= 1 ? 0 : at + Math.ceil(((1 - tokens) * 1000) / ratePerS);
  return { granted, bucket: { tokens, refilledAt: at }, blockedUntil };
}

/**
 * Due times for `count` deliveries a claim hands back: one slot per 1/rate s, from the next token (or the end of the
 * slots already given out, if later). A backlog is thus deferred once, spread at the rate, rather than claimed and
 * handed back at every token; the bucket still decides when each is sent.
 */
export function deferSlots(
  count: number,
  ratePerS: number,
  now: number,
  blockedUntil: number,
  scheduledUntil: number,
): { dues: number[]; scheduledUntil: number } {
  const interval = 1000 / ratePerS;
  const start = Math.max(blockedUntil || now + interval, scheduledUntil);
  const dues = Array.from({ length: count }, (_, i) => Math.ceil(start + i * interval));
  return { dues, scheduledUntil: Math.ceil(start + count * interval) };
}
