// One endpoint's work in a dispatcher: leased deliveries waiting for a send slot, the slots in use, and how far
// ahead the endpoint is worth leasing.
import type { ClaimedDelivery } from '../store/store.ts';

/** Endpoints answering within this (moving average) are leased `leaseFactor` times their cap ahead. */
export const FAST_SEND_MS = 250;

export interface Lane {
  cap: number;
  /** Moving average of this endpoint's send durations (ms): how far ahead it is worth leasing. */
  sendMs: number;
  sending: number;
  leased: number;
  queue: Array<{ c: ClaimedDelivery; claimedAt: number }>;
}

/**
 * How many deliveries a lane may hold leased (queued + sending). A fast endpoint gets `leaseFactor` times its cap,
 * so its slots refill from the queue while the next claim is on its way; a slow one only its cap, so nothing
 * waits in its queue long enough for the lease to lapse.
 */
export function lookahead(lane: Lane, leaseFactor: number): number {
  return lane.sendMs <= FAST_SEND_MS ? lane.cap * leaseFactor : lane.cap;
}
