// What observers of the engine hear: attempts, health and circuit-breaker transitions, holds and ends (notifications,
// metrics, `hookline simulate`). Observers only listen; nothing they do changes a delivery.
import type { Attempt } from '../domain.ts';
import type { AttemptRecord, ClaimedDelivery, HealthTransition } from '../store/store.ts';

export interface AttemptEvent {
  attempt: Attempt;
  claimed: ClaimedDelivery;
  next: AttemptRecord['next'];
  probe: boolean;
}

/** A circuit-breaker state change (docs/rules.md#breaker-scope), for notifications and `hookline simulate --scenario`. */
export interface BreakerTransition {
  at: number;
  scope: 'tenant' | 'endpoint';
  scopeKey: string;
  tenantId: string;
  from: 'closed' | 'open' | 'probing';
  to: 'closed' | 'open' | 'probing';
  /** failure_ratio | probe_claimed | probe_failed | probe_succeeded | probe_stale | manual_reset */
  reason: string;
  /** The current pause (0 once closed). */
  pauseMs: number;
  nextProbeAt: number | null;
  probeDeliveryId: string | null;
}

export interface DispatchObserver {
  attempt?(e: AttemptEvent): void;
  health?(t: HealthTransition): void;
  held?(claimed: ClaimedDelivery, until: number): void;
  ended?(claimed: ClaimedDelivery, status: 'failed' | 'skipped', reason: string): void;
  breaker?(t: BreakerTransition): void;
  /** An endpoint's adaptive concurrency changed in this worker (docs/rules.md#adaptive-concurrency). */
  concurrency?(e: ConcurrencyChange): void;
}

export interface ConcurrencyChange {
  endpointId: string;
  tenantId: string;
  /** The sends this worker now allows at once, within 1 … max. */
  effective: number;
  max: number;
  at: number;
}
