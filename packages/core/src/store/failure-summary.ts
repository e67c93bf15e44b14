// The per-endpoint summary of deliveries that failed for good (docs/rules.md#notifications): a pure decision.
// Failures are collected per endpoint; one summary goes out at most every window (15 min), with the count and the
// first ids, never one message per delivery.

/** One delivery that failed for good, as a summary lists it. */
export interface FailedDelivery {
  deliveryId: string;
  eventId: string;
  eventType: string;
  money: boolean;
}

/** An endpoint's failures not yet summarised, and when the last summary went out. */
export interface FailureSummaryState {
  count: number;
  money: number;
  /** The first failures since the last summary, at most `maxIds`. */
  first: FailedDelivery[];
  firstAt: number | null;
  lastAt: number | null;
  lastSentAt: number | null;
}

/** What one summary message says. */
export interface FailureSummary {
  count: number;
  money: number;
  first: FailedDelivery[];
  /** Failures counted but not listed. */
  more: number;
  since: number;
  until: number;
}

export const SUMMARY_WINDOW_MS = 15 * 60_000;
export const SUMMARY_MAX_IDS = 20;

export const emptySummaryState = (): FailureSummaryState => ({
  count: 0,
  money: 0,
  first: [],
  firstAt: null,
  lastAt: null,
  lastSentAt: null,
});

/** The state after `failed` ended at `at`: counted, and listed while fewer than `maxIds` are. */
export function addFailures(
  s: FailureSummaryState,
  failed: readonly FailedDelivery[],
  at: number,
  maxIds = SUMMARY_MAX_IDS,
): FailureSummaryState {
  if (failed.length === 0) return s;
  const first = [...s.first];
  for (const f of failed) if (first.length < maxIds) first.push(f);
  return {
    count: s.count + failed.length,
    money: s.money + failed.filter((f) => f.money).length,
    first,
    firstAt: s.firstAt ?? at,
    lastAt: Math.max(s.lastAt ?? at, at),
    lastSentAt: s.lastSentAt,
  };
}

/** When the next summary may go out: null while nothing waits; the first at once, then a window after the last. */
export function summaryDueAt(s: FailureSummaryState, windowMs = SUMMARY_WINDOW_MS): number | null {
  if (s.count === 0 || s.firstAt === null) return null;
  return s.lastSentAt === null ? s.firstAt : Math.max(s.firstAt, s.lastSentAt + windowMs);
}

/** The summary due at `now` and the state after sending it, or null when none is due yet. */
export function takeSummary(
  s: FailureSummaryState,
  now: number,
  windowMs = SUMMARY_WINDOW_MS,
): { summary: FailureSummary; next: FailureSummaryState } | null {
  const due = summaryDueAt(s, windowMs);
  if (due === null || now < due) return null;
  return {
    summary: {
      count: s.count,
      money: s.money,
      first: s.first,
      more: s.count - s.first.length,
      since: s.firstAt!,
      until: s.lastAt ?? now,
    },
    next: { ...emptySummaryState(), lastSentAt: now },
  };
}
