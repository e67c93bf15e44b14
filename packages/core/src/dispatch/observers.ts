// What observers of the engine hear: attempts, health and circuit-breaker transitions, holds and ends (notifications,
// metrics, `hookline simulate`). Observers only listen; nothing they do changes a delivery.
import type { Attempt, BreakerTransition } from '../domain.ts';
import type { AttemptRecord, ClaimedDelivery, HealthTransition } from '../store/store.ts';

export interface AttemptEvent {
  attempt: Attempt;
  claimed: ClaimedDelivery;
  next: AttemptRecord['next'];
  probe: boolean;
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
