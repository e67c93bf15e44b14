// The delivery queue's methods both dialects run as they are (each dialect's queue module re-exports them): which
// endpoints still exist, the next due time, the learned concurrency, retry now, and a test delivery's one attempt.
import type { Attempt } from '../../domain.ts';
import { HealthBatch } from '../health-batch.ts';
import { counterSlot, MinuteCounts } from '../minute-counts.ts';
import type { StoreScope } from '../store-scope.ts';
import { attemptToRow } from './delivery-rows.ts';
import type { AttemptRecord, HealthTransition } from './queue-store.ts';

export async function existingEndpoints({ db }: StoreScope, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  return (await db.all<{ id: string }>('existing-endpoints', { ids: [...ids] })).map((r) => r.id);
}
export async function nextDueAt({ db }: StoreScope): Promise<number | null> {
  const [r] = await db.all('next-due-at');
  return r && r.at !== null && r.at !== undefined ? Number(r.at) : null;
}
export async function setEffectiveConcurrency(
  { db }: StoreScope,
  endpointId: string,
  value: number | null,
): Promise<void> {
  await db.run('set-effective-concurrency', { id: endpointId, value });
}

// Retry now (docs/rules.md#retry-now): only next_attempt_at moves; the claim does the rest as for any due delivery.
export async function retryDelivery({ db }: StoreScope, tenantId: string, id: string, now: number): Promise<boolean> {
  return (await db.run('retry-delivery', { tenant_id: tenantId, id, now })) > 0;
}
export function retryEndpointDeliveries({ db }: StoreScope, endpointId: string, now: number): Promise<number> {
  return db.run('retry-endpoint-deliveries', { endpoint_id: endpointId, now });
}

export function recordTestAttempt(
  { db }: StoreScope,
  attempt: Attempt,
  health: AttemptRecord['health'],
  now: number,
  workerId?: string,
): Promise<HealthTransition[]> {
  return db.transaction(async (tx) => {
    const ok = attempt.outcome === 'success';
    const finished = await tx.run('finish-test-delivery', {
      id: attempt.deliveryId,
      worker: workerId ?? null,
      status: ok ? 'succeeded' : 'failed',
      reason: ok
        ? null
        : `test delivery failed: ${attempt.errorMessage ?? attempt.errorClass ?? attempt.responseStatus}`,
      started_at: attempt.startedAt,
      now,
    });
    // A test delivery is never held before its one attempt (it is created leased and sent at once; one the
    // dispatcher took over records through recordAttempts).
    await tx.run('insert-attempt', { ...attemptToRow(attempt), held_since: null, held_until: null });
    if (finished > 0) {
      const counts = new MinuteCounts();
      counts.add(attempt, ok ? 'succeeded' : 'failed', workerId ? counterSlot(workerId) : 0);
      await counts.write(tx);
    }
    if (!health || finished === 0) return [];
    const batch = new HealthBatch(tx, now);
    await batch.apply(attempt, health, null);
    return batch.flush();
  });
}
