// The delivery queue on PostgreSQL: leases kept in the rows (status delivering, lease_until, leased_by), so that several
// processes share one queue; a batch of records finished in two multi-row statements. The store's queue part is this
// module's functions bound to the store's scope (store-scope.ts).
import type { Environment } from '../../domain.ts';
import { endpointFromRow } from '../catalog/endpoint-rows.ts';
import type { SqlExecutor } from '../sql-driver.ts';
import type { StoreScope } from '../store-scope.ts';
import { attemptToRow, claimedTrace, deliveryFromRow } from './delivery-rows.ts';
import { endDeliveriesIn } from './end-deliveries.ts';
import type { AttemptRecord, ClaimedDelivery, ClaimOptions, HealthTransition } from './queue-store.ts';
import { applyRateLimits } from './rate-limited-claim.ts';
import { type FinishedRow, type RecordDialect, recordAttemptsIn } from './record-attempts.ts';
import {
  countRowsInFlight,
  findKeyHeadRow,
  releaseAllRowLeases,
  releaseExpiredRowLeases,
  releaseRowLeases,
} from './row-leases.ts';

export * from './queue-sql.ts';

/** Leases due rows in the rows themselves (claim_due: status delivering, lease_until, leased_by). */
export function claimDue({ db }: StoreScope, o: ClaimOptions): Promise<ClaimedDelivery[]> {
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
        await claimedDeliveries(
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
async function claimedDeliveries(tx: SqlExecutor, ids: string[]): Promise<ClaimedDelivery[]> {
  const full = await tx.all('claimed-rows', { ids });
  // One endpoint object per endpoint in the batch, shared by its deliveries (read-only): mapped once, and
  // copied once when the claim crosses to another thread.
  const endpoints = new Map<string, ClaimedDelivery['endpoint']>();
  return full.map((r) => {
    let endpoint = endpoints.get(r.endpoint_id);
    if (!endpoint) endpoints.set(r.endpoint_id, (endpoint = endpointFromRow(r, 'e_')));
    return {
      delivery: deliveryFromRow(r),
      body: Buffer.isBuffer(r.ev_body) ? r.ev_body : Buffer.from(r.ev_body),
      endpoint,
      environment: r.t_environment as Environment,
      replayId: r.replay_id ?? null,
      trace: claimedTrace(r),
    };
  });
}

export async function holdDeliveries(
  { db }: StoreScope,
  ids: string[],
  workerId: string,
  until: number,
  now: number,
): Promise<void> {
  if (ids.length) await db.run('hold-deliveries', { ids, worker: workerId, until, now });
}

export function endDeliveries(
  { db }: StoreScope,
  ids: string[],
  workerId: string | null,
  status: 'failed' | 'skipped',
  reason: string,
  now: number,
  options?: { summarise?: boolean },
): Promise<void> {
  return endDeliveriesIn(db, true, ids, workerId, status, reason, now, options);
}

export function releaseLeases({ db }: StoreScope, ids: string[], workerId: string, now: number): Promise<number> {
  return releaseRowLeases(db, ids, workerId, now);
}
export function releaseExpiredLeases({ db }: StoreScope, now: number): Promise<number> {
  return releaseExpiredRowLeases(db, now);
}
export function releaseAllLeases({ db }: StoreScope, now: number): Promise<number> {
  return releaseAllRowLeases(db, now);
}
export function countInFlight({ db }: StoreScope, endpointId: string): Promise<number> {
  return countRowsInFlight(db, endpointId);
}
export function findKeyHead({ db }: StoreScope, endpointId: string, orderingKey: string) {
  return findKeyHeadRow(db, endpointId, orderingKey);
}

/** Recording's dialect, bound once: keys and endpoints locked across processes, the batch finish below. */
const RECORD: RecordDialect = { capsAcrossWorkers: true, finishBatch };

export function recordAttempts(s: StoreScope, records: AttemptRecord[], now: number): Promise<HealthTransition[]> {
  return recordAttemptsIn(s, RECORD, records, now);
}

/**
 * A batch of records in two statements (finish-attempts, insert-attempts over unnest) instead of two per record;
 * the finish returns the held periods it clears, which the attempts take over.
 * Ordered deliveries, and a delivery twice in one batch (finished twice, in order), keep the row-by-row path.
 */
async function finishBatch(
  _s: StoreScope,
  tx: SqlExecutor,
  ordered: readonly AttemptRecord[],
  now: number,
): Promise<Map<string, FinishedRow> | null> {
  const ids = new Set(ordered.map((r) => r.attempt.deliveryId));
  if (ids.size !== ordered.length || ordered.some((r) => r.ordering)) return null;
  const finishedRows = await tx.all<FinishedRow>('finish-attempts', {
    ids: ordered.map((r) => r.attempt.deliveryId),
    workers: ordered.map((r) => r.workerId),
    attempt_counts: ordered.map((r) => r.attempt.n - 1),
    statuses: ordered.map((r) => r.next.status),
    ladders: ordered.map((r) => (r.next.status === 'pending' ? r.next.ladder : null)),
    next_attempt_ats: ordered.map((r) => (r.next.status === 'pending' ? r.next.nextAttemptAt : null)),
    terminal_reasons: ordered.map((r) => (r.next.status === 'failed' ? r.next.reason : null)),
    fast_failures: ordered.map((r) => r.progress.fastFailures),
    slow_failures: ordered.map((r) => r.progress.slowFailures),
    slow_started_ats: ordered.map((r) => r.progress.slowStartedAt),
    first_attempt_ats: ordered.map((r) => r.progress.firstAttemptAt),
    last_attempt_ats: ordered.map((r) => r.attempt.startedAt),
    now,
  });
  const finished = new Map(finishedRows.map((r) => [r.id, r]));
  const at = ordered.map((r) => attemptToRow(r.attempt));
  const col = (k: string) => at.map((r) => r[k]);
  // Each attempt takes over the held period its finish cleared (none when the lease was lost).
  const held = (k: 'held_since' | 'held_until') => ordered.map((r) => finished.get(r.attempt.deliveryId)?.[k] ?? null);
  // Skipped when the delivery is gone, or already on record (a retried commit).
  await tx.run('insert-attempts', {
    ids: col('id'),
    delivery_ids: col('delivery_id'),
    tenant_ids: col('tenant_id'),
    endpoint_ids: col('endpoint_id'),
    ns: col('n'),
    triggers: col('trigger'),
    started_ats: col('started_at'),
    duration_mss: col('duration_ms'),
    request_headers: col('request_headers'),
    response_statuses: col('response_status'),
    response_headers: col('response_headers'),
    response_excerpts: col('response_excerpt'),
    error_classes: col('error_class'),
    error_messages: col('error_message'),
    outcomes: col('outcome'),
    ladders: col('ladder'),
    trace_ids: col('trace_id'),
    held_sinces: held('held_since'),
    held_untils: held('held_until'),
  });
  return finished;
}
