// The breakers-and-health part of the store: breaker rows and windows, held work, and the failing-endpoint sweep.
import type { Endpoint } from '../../domain.ts';
import type { OutboxEntry } from '../outbox/outbox-store.ts';

export interface BreakerRow {
  scopeKey: string;
  tenantId: string;
  state: 'closed' | 'open' | 'probing';
  pauseMs: number;
  openedAt: number | null;
  nextProbeAt: number | null;
  probeDeliveryId: string | null;
  updatedAt: number;
}

/** A breaker scope's sliding window: distinct deliveries whose latest attempt lies in it, and how many of those failed. */
export interface BreakerWindow {
  deliveries: number;
  /** Deliveries whose latest attempt in the window was a delivery failure (client errors are not). */
  failures: number;
}

export interface BreakerStore {
  getBreaker(scopeKey: string): Promise<BreakerRow | null>;
  /**
   * Compare-and-set on `updatedAt` (null: insert if absent); false when another worker changed it first. `notify`
   * (the transition's notification) is written in the same transaction, only when the change wins.
   */
  saveBreaker(row: BreakerRow, expectedUpdatedAt: number | null, notify?: OutboxEntry | null): Promise<boolean>;
  /** Distinct deliveries of the scope last attempted at or after `since`, and how many of those attempts failed. */
  breakerWindow(scopeKey: string, since: number): Promise<BreakerWindow>;
  resetBreakerWindow(scopeKey: string): Promise<void>;
  /** Makes every held delivery of a scope due now, ending its held period now. */
  releaseHeld(scope: { tenantId: string } | { endpointId: string }, now: number): Promise<number>;
  listBreakers(tenantId: string): Promise<BreakerRow[]>;

  // health sweeps
  /** Endpoints degraded since before `failingBefore`, to pause (standard: 5 days). */
  listEndpointsFailingSince(failingBefore: number): Promise<Endpoint[]>;
  /** Pauses (reason `failing`) an endpoint still degraded with this exact streak start, its notification in the same transaction; false when it moved on. */
  pauseFailingEndpoint(endpointId: string, failingSince: number, now: number): Promise<boolean>;
}
