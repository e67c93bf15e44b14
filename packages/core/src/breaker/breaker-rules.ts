// The circuit breaker's transitions (docs/rules.md#breaker) as pure functions: (rule, row, window, now) → next row and transition.
import type { BreakerRule, OutcomeClass } from '../policy/types.ts';
import type { BreakerRow, BreakerWindow } from '../store/store.ts';

export type BreakerState = BreakerRow['state'];
export type BreakerScope = 'tenant' | 'endpoint';
export type BreakerReason =
  | 'failure_ratio'
  | 'probe_claimed'
  | 'probe_failed'
  | 'probe_succeeded'
  | 'probe_stale'
  | 'manual_reset';

export interface BreakerChange {
  row: BreakerRow;
  transition: { from: BreakerState; to: BreakerState; reason: BreakerReason };
}

/** What admission decides for one due delivery, before any write. */
export type BreakerAdmission =
  | { kind: 'send' }
  | { kind: 'hold'; until: number }
  /** Try to become the cycle's one probe: write `change.row` with a compare-and-set. */
  | { kind: 'claim_probe'; change: BreakerChange };

export function scopeKeyOf(scope: BreakerScope, id: string): string {
  return `${scope}:${id}`;
}

export function scopeOfKey(scopeKey: string): { scope: BreakerScope; id: string } {
  const i = scopeKey.indexOf(':');
  const scope = scopeKey.slice(0, i);
  if (i < 0 || (scope !== 'tenant' && scope !== 'endpoint')) throw new Error(`not a breaker scope key: ${scopeKey}`);
  return { scope, id: scopeKey.slice(i + 1) };
}

export function closedRow(scopeKey: string, tenantId: string, now: number): BreakerRow {
  return {
    scopeKey,
    tenantId,
    state: 'closed',
    pauseMs: 0,
    openedAt: null,
    nextProbeAt: null,
    probeDeliveryId: null,
    updatedAt: now,
  };
}

/**
 * `updatedAt` is the compare-and-set version: it must move on every write even when two writes share a
 * millisecond (a virtual clock does not move between them), or a stale writer would pass the check.
 */
export function nextVersion(prev: BreakerRow | null, now: number): number {
  return prev === null ? now : Math.max(now, prev.updatedAt + 1);
}

/**
 * ≥ minAttempts distinct deliveries in the window and ≥ failureRatio of them failed, each delivery counted once by
 * its latest attempt: one delivery's own fast retries never trip it (docs/rules.md#breaker-open). Client errors count as non-failures.
 */
export function windowTrips(rule: BreakerRule, window: BreakerWindow): boolean {
  return window.deliveries >= rule.minAttempts && window.failures >= rule.failureRatio * window.deliveries;
}

/** closed → open when the window trips; null otherwise (or when the breaker is not closed). */
export function afterWindow(
  rule: BreakerRule,
  row: BreakerRow,
  window: BreakerWindow,
  now: number,
): BreakerChange | null {
  if (row.state !== 'closed' || !windowTrips(rule, window)) return null;
  return {
    row: {
      ...row,
      state: 'open',
      pauseMs: rule.pauseMs,
      openedAt: now,
      nextProbeAt: now + rule.pauseMs,
      probeDeliveryId: null,
      updatedAt: nextVersion(row, now),
    },
    transition: { from: 'closed', to: 'open', reason: 'failure_ratio' },
  };
}

/**
 * Admission of one due delivery. Open before the pause ends: hold until the probe time. Open after it: try to
 * claim the probe. Probing: the probe's own delivery (re-claimed after a lost lease) goes again; a probe that
 * never recorded for `staleProbeMs` (its worker died) is replaced; everyone else re-checks after `recheckMs`.
 */
export function admit(
  rule: BreakerRule,
  row: BreakerRow | null,
  deliveryId: string,
  now: number,
  staleProbeMs: number,
): BreakerAdmission {
  if (row === null || row.state === 'closed') return { kind: 'send' };
  if (row.state === 'open') {
    const probeAt = row.nextProbeAt ?? now;
    if (now < probeAt) return { kind: 'hold', until: probeAt };
    return { kind: 'claim_probe', change: claim(row, deliveryId, now, 'probe_claimed') };
  }
  // probing
  if (row.probeDeliveryId === deliveryId)
    return { kind: 'claim_probe', change: claim(row, deliveryId, now, 'probe_claimed') };
  if (now - row.updatedAt >= staleProbeMs)
    return { kind: 'claim_probe', change: claim(row, deliveryId, now, 'probe_stale') };
  return { kind: 'hold', until: now + rule.recheckMs };
}

function claim(row: BreakerRow, deliveryId: string, now: number, reason: BreakerReason): BreakerChange {
  return {
    row: { ...row, state: 'probing', probeDeliveryId: deliveryId, updatedAt: nextVersion(row, now) },
    transition: { from: row.state, to: 'probing', reason },
  };
}

/**
 * The probe's outcome. Anything but a delivery failure closes it: a client error proves the endpoint answers,
 * the same reason client errors never open it. A failed probe reopens it with the pause doubled, capped.
 * Null when this delivery is no longer the probe (a reset or a replacement probe came first).
 */
export function afterProbe(
  rule: BreakerRule,
  row: BreakerRow | null,
  deliveryId: string,
  outcome: OutcomeClass,
  now: number,
): BreakerChange | null {
  if (row === null || row.state !== 'probing' || row.probeDeliveryId !== deliveryId) return null;
  if (outcome !== 'delivery_failure') {
    return {
      row: { ...closedRow(row.scopeKey, row.tenantId, now), updatedAt: nextVersion(row, now) },
      transition: { from: 'probing', to: 'closed', reason: 'probe_succeeded' },
    };
  }
  const pauseMs = Math.min(Math.max(row.pauseMs, rule.pauseMs) * 2, rule.maxPauseMs);
  return {
    row: {
      ...row,
      state: 'open',
      pauseMs,
      nextProbeAt: now + pauseMs,
      probeDeliveryId: null,
      updatedAt: nextVersion(row, now),
    },
    transition: { from: 'probing', to: 'open', reason: 'probe_failed' },
  };
}

/** Manual reset (API, CLI, console): closed at once, pause and counters reset. Null when already closed. */
export function reset(row: BreakerRow | null, scopeKey: string, tenantId: string, now: number): BreakerChange | null {
  if (row === null || row.state === 'closed') return null;
  return {
    row: { ...closedRow(scopeKey, tenantId, now), updatedAt: nextVersion(row, now) },
    transition: { from: row.state, to: 'closed', reason: 'manual_reset' },
  };
}
