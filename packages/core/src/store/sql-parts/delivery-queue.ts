// The delivery queue part of SqlStore as functions over the driver: claim, hold, end, and the leases (recording
// attempts is record-attempts.ts). The hot path: claimDue and holdDeliveries go straight to their statements.
import type { DeliveryStatus, Environment } from '../../domain.ts';
import { addToFailureSummaries } from '../outbox-writes.ts';
import type { ClaimedDelivery, ClaimOptions } from '../parts/delivery-queue-store.ts';
import { applyRateLimits } from '../rate-limited-claim.ts';
import * as rows from '../rows.ts';
import type { SqlDriver, SqlExecutor } from '../sql-driver.ts';
import { cmp, lockKey } from './listing.ts';

/** Reads what a worker needs for the deliveries it just leased: SqlStore.claimedDeliveries, a dialect's override point. */
export type ClaimedRowsReader = (tx: SqlExecutor, ids: string[]) => Promise<ClaimedDelivery[]>;

export function claimDue(db: SqlDriver, o: ClaimOptions, readClaimed: ClaimedRowsReader): Promise<ClaimedDelivery[]> {
  return db.transaction(
    async (tx) => {
      const claimed = await tx.all<{ id: string }>('claim-due', {
        now: o.now,
        lease_until: o.leaseUntil,
        worker: o.workerId,
        limit: o.limit,
        saturated: [...o.saturatedEndpoints],
        lease_factor: o.leaseFactor ?? 1,
      });
      if (claimed.length === 0) return [];
      return applyRateLimits(
        tx,
        await readClaimed(
          tx,
          claimed.map((c) => c.id),
        ),
        o.workerId,
        o.now,
      );
      // A lease needs no fsync of its own: losing it in an OS crash only means the delivery is claimed again,
      // and the attempt's durable commit syncs it anyway. Halves the fsyncs of a busy dispatcher.
    },
    { durable: false },
  );
}

/** Everything a worker needs for the deliveries it just leased (claimed-rows: each row with its endpoint's columns). */
export async function claimedDeliveries(tx: SqlExecutor, ids: string[]): Promise<ClaimedDelivery[]> {
  const full = await tx.all('claimed-rows', { ids });
  // One endpoint object per endpoint in the batch, shared by its deliveries (read-only): mapped once, and
  // copied once when the claim crosses to another thread.
  const endpoints = new Map<string, ClaimedDelivery['endpoint']>();
  return full.map((r) => {
    let endpoint = endpoints.get(r.endpoint_id);
    if (!endpoint) endpoints.set(r.endpoint_id, (endpoint = rows.endpointFromRow(r, 'e_')));
    return {
      delivery: rows.deliveryFromRow(r),
      body: Buffer.isBuffer(r.ev_body) ? r.ev_body : Buffer.from(r.ev_body),
      endpoint,
      environment: r.t_environment as Environment,
      replayId: r.replay_id ?? null,
      trace: rows.claimedTrace(r),
    };
  });
}

export async function holdDeliveries(
  db: SqlExecutor,
  ids: string[],
  workerId: string,
  until: number,
  now: number,
): Promise<void> {
  if (ids.length) await db.run('hold-deliveries', { ids, worker: workerId, until, now });
}

/** Ends deliveries without an attempt; `lockKeys`: SqlStore.capsAcrossWorkers. */
export async function endDeliveries(
  db: SqlDriver,
  lockKeys: boolean,
  ids: string[],
  workerId: string | null,
  status: 'failed' | 'skipped',
  reason: string,
  now: number,
  /** leased: those of `ids` the worker holds in memory (SQLite: docs/rules.md#sqlite-leases). */
  options: { summarise?: boolean; leased?: readonly string[] } = {},
): Promise<void> {
  if (ids.length === 0) return;
  await db.transaction(async (tx) => {
    // Ending a key's head makes the next of its key due (docs/rules.md#ordered-claim); keys locked first, as in
    // recordAttempts.
    const keyed = await tx.all<{ endpoint_id: string; ordering_key: string }>('keys-of-deliveries', { ids });
    const keys = [...new Set(keyed.map((r) => `${r.endpoint_id}\u0000${r.ordering_key}`))].sort(cmp);
    if (lockKeys) for (const k of keys) await lockKey(tx, k);
    const replayOf = new Map(
      (await tx.all<{ id: string; replay_id: string }>('replays-of-deliveries', { ids })).map((r) => [
        r.id,
        r.replay_id,
      ]),
    );
    const ended = await tx.all<{ id: string }>('end-deliveries', {
      ids,
      worker: workerId,
      leased: [...(options.leased ?? [])],
      status,
      reason,
      now,
    });
    for (const k of keys) {
      const cut = k.indexOf('\u0000');
      await tx.run('promote-next-of-key', { endpoint_id: k.slice(0, cut), ordering_key: k.slice(cut + 1), now });
    }
    // A replay's delivery ended unattempted (its endpoint paused meanwhile) is done for the replay, and failed.
    for (const r of ended) {
      const replayId = replayOf.get(r.id);
      if (replayId) await tx.run('bump-replay', { id: replayId, succeeded: 0, failed: 1 });
    }
    // As with attempts, a replay's failure is not summarised again (the delivery was failed or skipped before).
    if (status === 'failed' && options.summarise !== false)
      await addToFailureSummaries(
        tx,
        ended.filter((r) => !replayOf.has(r.id)).map((r) => r.id),
        now,
      );
  });
}

export async function releaseLeases(db: SqlExecutor, ids: string[], workerId: string, now: number): Promise<number> {
  return ids.length ? db.run('release-leases', { ids, worker: workerId, now }) : 0;
}
export function releaseExpiredLeases(db: SqlExecutor, now: number): Promise<number> {
  return db.run('release-expired-leases', { now });
}
export function releaseAllLeases(db: SqlExecutor, now: number): Promise<number> {
  return db.run('release-all-leases', { now });
}
export async function existingEndpoints(db: SqlExecutor, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  return (await db.all<{ id: string }>('existing-endpoints', { ids: [...ids] })).map((r) => r.id);
}
export async function nextDueAt(db: SqlExecutor): Promise<number | null> {
  const [r] = await db.all('next-due-at');
  return r && r.at !== null && r.at !== undefined ? Number(r.at) : null;
}
export async function countInFlight(db: SqlExecutor, endpointId: string): Promise<number> {
  const [r] = await db.all('count-in-flight', { endpoint_id: endpointId });
  return Number(r?.n ?? 0);
}
export async function setEffectiveConcurrency(
  db: SqlExecutor,
  endpointId: string,
  value: number | null,
): Promise<void> {
  await db.run('set-effective-concurrency', { id: endpointId, value });
}

// Retry now (docs/rules.md#retry-now): only next_attempt_at moves; the claim does the rest as for any due delivery.
export async function retryDelivery(db: SqlExecutor, tenantId: string, id: string, now: number): Promise<boolean> {
  return (await db.run('retry-delivery', { tenant_id: tenantId, id, now })) > 0;
}
export function retryEndpointDeliveries(db: SqlExecutor, endpointId: string, now: number): Promise<number> {
  return db.run('retry-endpoint-deliveries', { endpoint_id: endpointId, now });
}
export async function findKeyHead(
  db: SqlExecutor,
  endpointId: string,
  orderingKey: string,
): Promise<{ id: string; status: DeliveryStatus } | null> {
  const [r] = await db.all<{ id: string; status: DeliveryStatus }>('find-key-head', {
    endpoint_id: endpointId,
    ordering_key: orderingKey,
  });
  return r ? { id: r.id, status: r.status } : null;
}
