// Small numeric helpers for results: median of runs, percentiles, rounding.

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Nearest-rank percentile, p in [0, 100]. */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export function round(x: number, digits = 0): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** The run whose `key` is the median (odd counts) — keeps a run's figures together instead of mixing runs. */
export function medianRun<T>(runs: T[], key: (r: T) => number): T {
  const sorted = [...runs].sort((a, b) => key(a) - key(b));
  return sorted[(sorted.length - 1) >> 1];
}
