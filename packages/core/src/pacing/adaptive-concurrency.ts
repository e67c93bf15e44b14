// Adaptive concurrency per endpoint (docs/rules.md#adaptive-concurrency): additive increase while it answers fast,
// multiplicative decrease when it answers 429/503 or slower than its moving baseline, within 1 … max_concurrency.
// Pure functions of data: the dispatcher keeps one state per endpoint and feeds it every attempt's outcome.

export interface ConcurrencyState {
  /** The fractional window; the effective concurrency is its floor, within 1 … max. */
  limit: number;
  /** Moving average of successful response times (ms); null until the first. */
  baselineMs: number | null;
  samples: number;
  /** The window when it was last cut: growth is slow near it, where the endpoint pushed back before. */
  ceiling: number | null;
  /** Sends numbered below this started before the last cut: their pushback is already answered. */
  cutAtSeq: number;
}

/** What one attempt's response says about the endpoint's load. */
export interface ConcurrencySignal {
  /** The send's number on this endpoint (the dispatcher counts them). */
  seq: number;
  status: number | null;
  success: boolean;
  durationMs: number;
  /** Whether the endpoint's whole window was in use when this send started: only then does a fast answer say it can take more. */
  windowFull: boolean;
}

export const ADAPTIVE = Object.freeze({
  /** The window is multiplied by this on pushback. */
  decrease: 0.7,
  /** Slower than baseline × this (+ slack) counts as pushback, once the baseline has this many samples. */
  latencyFactor: 2,
  latencySlackMs: 20,
  minSamples: 10,
  /** Weight of a new sample in the baseline: slow, so a climb stands out and a lasting change is learned. */
  baselineWeight: 0.05,
  /** Near the last cut (ceiling − nearCeiling … ceiling), growth takes this many times longer. */
  slowNearCeiling: 8,
  nearCeiling: 2,
});

/** A fresh state: the learned value a restarted worker read from the store, else the endpoint's cap. */
export function initialConcurrency(max: number, learned: number | null = null): ConcurrencyState {
  const start = learned === null ? max : Math.min(max, Math.max(1, learned));
  return { limit: start, baselineMs: null, samples: 0, ceiling: learned === null ? null : start + 1, cutAtSeq: 0 };
}

export function effectiveConcurrency(s: ConcurrencyState, max: number): number {
  return Math.max(1, Math.min(max, Math.floor(s.limit + 1e-9)));
}

/** 429 and 503 say "too much"; so does a response well above the endpoint's moving baseline. */
export function isPushback(s: ConcurrencyState, sig: ConcurrencySignal): boolean {
  if (sig.status === 429 || sig.status === 503) return true;
  if (s.baselineMs === null || s.samples < ADAPTIVE.minSamples) return false;
  return sig.durationMs > s.baselineMs * ADAPTIVE.latencyFactor + ADAPTIVE.latencySlackMs;
}

/**
 * The state after one response. `nextSeq` is the number the next send will get: a cut answers every send already
 * out, so their pushback (sent under the old window) does not cut again. Other failures (5xx, network errors,
 * client errors) leave the window as it is: they say nothing about load; nor does a fast answer while the window
 * was not full (a trickle of work proves nothing about a larger window).
 */
export function nextConcurrency(
  s: ConcurrencyState,
  sig: ConcurrencySignal,
  max: number,
  nextSeq: number,
): ConcurrencyState {
  const limit = Math.min(s.limit, max);
  const pushback = isPushback(s, sig);
  let baselineMs = s.baselineMs;
  let samples = s.samples;
  if (sig.success) {
    baselineMs =
      baselineMs === null
        ? sig.durationMs
        : baselineMs * (1 - ADAPTIVE.baselineWeight) + sig.durationMs * ADAPTIVE.baselineWeight;
    samples++;
  }
  // One new state per response (this runs for every attempt): built once, not spread step by step.
  if (pushback) {
    if (sig.seq < s.cutAtSeq) return { limit, baselineMs, samples, ceiling: s.ceiling, cutAtSeq: s.cutAtSeq };
    return {
      limit: Math.max(1, limit * ADAPTIVE.decrease),
      baselineMs,
      samples,
      ceiling: Math.max(1, Math.min(max, Math.floor(limit + 1e-9))),
      cutAtSeq: nextSeq,
    };
  }
  if (!sig.success || !sig.windowFull) return { limit, baselineMs, samples, ceiling: s.ceiling, cutAtSeq: s.cutAtSeq };
  const w = Math.floor(limit + 1e-9);
  const near = s.ceiling !== null && w >= s.ceiling - ADAPTIVE.nearCeiling && w <= s.ceiling;
  const step = 1 / (Math.max(1, limit) * (near ? ADAPTIVE.slowNearCeiling : 1));
  const grown = Math.min(max, limit + step);
  // Well past the old ceiling without pushback: it no longer says anything.
  const ceiling = s.ceiling !== null && grown >= s.ceiling + 2 ? null : s.ceiling;
  return { limit: grown, baselineMs, samples, ceiling, cutAtSeq: s.cutAtSeq };
}
