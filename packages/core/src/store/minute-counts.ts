// The per-minute counters a transaction that records attempts adds to (docs/rules.md#stats-counters): counted in
// memory over the batch, written as one statement (add-delivery-minutes) before the commit.
import type { Attempt } from '../domain.ts';
import type { SqlExecutor } from './sql-driver.ts';

interface MinuteRow {
  endpoint_id: string;
  minute: number;
  slot: number;
  tenant_id: string;
  succeeded: number;
  failed: number;
  retried: number;
  latency_ms_sum: number;
  latency_count: number;
}

/** Slots per minute row: workers on one PostgreSQL database add to their own slot (one per worker, mostly). */
const SLOTS = 16;

/** A worker's slot: a stable hash of its id, so one worker always writes the same rows. */
export function counterSlot(workerId: string): number {
  let h = 0;
  for (let i = 0; i < workerId.length; i++) h = (Math.imul(h, 31) + workerId.charCodeAt(i)) | 0;
  return Math.abs(h) % SLOTS;
}

export class MinuteCounts {
  readonly #rows = new Map<string, MinuteRow>();

  /**
   * Counts one recorded attempt (whose delivery row this transaction changed: a retried commit or a lost lease is
   * not counted twice) and what its delivery became.
   */
  add(a: Attempt, next: 'pending' | 'succeeded' | 'failed' | string, slot: number): void {
    const minute = Math.floor(a.startedAt / 60_000);
    const key = `${a.endpointId}\u0000${minute}`;
    let r = this.#rows.get(key);
    if (!r) {
      r = {
        endpoint_id: a.endpointId,
        minute,
        slot,
        tenant_id: a.tenantId,
        succeeded: 0,
        failed: 0,
        retried: 0,
        latency_ms_sum: 0,
        latency_count: 0,
      };
      this.#rows.set(key, r);
    }
    if (next === 'succeeded') r.succeeded++;
    else if (next === 'failed') r.failed++;
    else if (next === 'pending' && a.outcome !== 'success') r.retried++;
    r.latency_ms_sum += a.durationMs;
    r.latency_count++;
  }

  /** Adds the batch's rows to the counters (nothing when nothing was counted). */
  async write(tx: SqlExecutor): Promise<void> {
    if (this.#rows.size === 0) return;
    await tx.run('add-delivery-minutes', { rows: JSON.stringify([...this.#rows.values()]) });
  }
}
