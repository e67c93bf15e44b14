// The delivery queue on SQLite: leases held in memory on the store thread instead of in the rows
// (docs/rules.md#sqlite-leases, lease-table.ts), and a batch of records bound row by row to two prepared statements.
// The store's queue part is this module's functions bound to the store's scope, whose lease view is the lease table.
import type { Environment } from '../../domain.ts';
import { endpointFromRow } from '../catalog/endpoint-rows.ts';
import type { SqlExecutor } from '../sql-driver.ts';
import type { SqliteDriver } from '../sqlite/sqlite-driver.ts';
import type { StoreScope } from '../store-scope.ts';
import { attemptToRow, claimedTrace, deliveryFromRow } from './delivery-rows.ts';
import { endDeliveriesIn } from './end-deliveries.ts';
import type { LeaseTable } from './lease-table.ts';
import type { AttemptRecord, ClaimedDelivery, ClaimOptions, HealthTransition } from './queue-store.ts';
import { applyRateLimits } from './rate-limited-claim.ts';
import { type FinishedRow, finishParams, type RecordDialect, recordAttemptsIn } from './record-attempts.ts';
import {
  countRowsInFlight,
  findKeyHeadRow,
  releaseAllRowLeases,
  releaseExpiredRowLeases,
  releaseRowLeases,
} from './row-leases.ts';

export * from './queue-sql.ts';

/** A SQLite store's scope: its driver (eachRow) and its lease table. */
export type SqliteScope = StoreScope<SqliteDriver, LeaseTable>;

/**
 * Reads the due rows and leases them here: no row is written (rate limits aside, which defer the rows past the
 * bucket). The leases are noted before the rate limit runs, so its backlog deferral passes over this claim's rows as it
 * passed over `delivering` ones, and dropped again if the claim does not commit.
 */
export async function claimDue({ db, leases }: SqliteScope, o: ClaimOptions): Promise<ClaimedDelivery[]> {
  const added: string[] = [];
  try {
    return await db.transaction(
      async (tx) => {
        const due = await tx.all<{ id: string }>('claim-due', {
          now: o.now,
          limit: o.limit,
          saturated: [...o.saturatedEndpoints],
        });
        if (due.length === 0) return [];
        const read = await claimedDeliveries(
          tx,
          due.map((c) => c.id),
        );
        for (const c of read) {
          const d = c.delivery;
          leases.add(d.id, {
            workerId: o.workerId,
            tenantId: d.tenantId,
            endpointId: d.endpointId,
            orderingKey: d.orderingKey ?? null,
            attemptCount: d.attemptCount,
            until: o.leaseUntil,
          });
          added.push(d.id);
          d.status = 'delivering';
          d.leaseUntil = o.leaseUntil;
        }
        const kept = await applyRateLimits(tx, read, o.workerId, o.now);
        if (kept.length < read.length) {
          const stay = new Set(kept.map((c) => c.delivery.id));
          for (const c of read) if (!stay.has(c.delivery.id)) leases.drop(c.delivery.id);
        }
        return kept;
        // Nothing here needs an fsync: the rate limit's deferrals may be lost in an OS crash like any lease.
      },
      { durable: false },
    );
  } catch (err) {
    for (const id of added) leases.drop(id);
    throw err;
  }
}

/**
 * The claimed rows with their events, and each endpoint of the batch (with its tenant's environment) read once
 * instead of once per row: a claim of 500 rows to one endpoint materialises 500 rows of ~25 columns, not ~45.
 */
async function claimedDeliveries(tx: SqlExecutor, ids: string[]): Promise<ClaimedDelivery[]> {
  const ds = await tx.all('claimed-rows', { ids });
  const endpointIds = [...new Set(ds.map((r) => r.endpoint_id as string))];
  const endpoints = new Map<string, { endpoint: ClaimedDelivery['endpoint']; environment: Environment }>();
  for (const r of await tx.all('claimed-endpoints', { ids: endpointIds })) {
    endpoints.set(r.id, { endpoint: endpointFromRow(r), environment: r.t_environment as Environment });
  }
  const out: ClaimedDelivery[] = [];
  for (const r of ds) {
    const e = endpoints.get(r.endpoint_id);
    if (!e) continue; // cannot happen inside the claim's transaction (deliveries go with their endpoint); as the join did
    out.push({
      delivery: deliveryFromRow(r),
      body: Buffer.isBuffer(r.ev_body) ? r.ev_body : Buffer.from(r.ev_body),
      endpoint: e.endpoint,
      environment: e.environment,
      replayId: r.replay_id ?? null,
      trace: claimedTrace(r),
    });
  }
  return out;
}

/**
 * A batch of records, two prepared statements per record bound straight from the record (eachRow): every attempt
 * inserted (insert-attempt-leased, idempotent) and then every delivery finished (finish-attempt-leased, the same
 * conditions as finish-attempt). Bound per row rather than one statement over a JSON array: SQLite parses the JSON
 * text again for every field it extracts, which cost more store-thread time per delivery than the statements' own
 * work (docs/performance.md). The inserts go first so that an attempt takes over its delivery's held period before
 * the finish clears it (SQLite's RETURNING gives only the new values). A SQLite file has one writer at a time, so the
 * per-row lock order PostgreSQL needs does not arise.
 */
async function finishBatch(
  { db, leases }: SqliteScope,
  _tx: SqlExecutor,
  records: readonly AttemptRecord[],
  now: number,
): Promise<Map<string, FinishedRow>> {
  const attempts: Record<string, unknown>[] = [];
  const finishes: Record<string, unknown>[] = [];
  for (const r of records) {
    const leased = holds(leases, r) ? 1 : 0;
    // Added to the rows, not spread into copies: a copy per record costs the store thread measurably.
    const row = attemptToRow(r.attempt);
    row.worker = r.workerId;
    row.leased = leased;
    attempts.push(row);
    const p: Record<string, unknown> = finishParams(r);
    p.leased = leased;
    p.now = now;
    finishes.push(p);
  }
  db.eachRow('insert-attempt-leased', attempts);
  const finished = db.eachRow<FinishedRow>('finish-attempt-leased', finishes);
  return new Map(finished.map((f) => [f.id, f]));
}

/** Every key a batch of records ended a delivery of: their next deliveries due in one statement (promote-next-of-keys). */
async function promoteKeys(
  tx: SqlExecutor,
  keys: ReadonlyArray<{ endpointId: string; key: string }>,
  now: number,
): Promise<void> {
  await tx.run('promote-next-of-keys', {
    keys: JSON.stringify(keys.map((k) => ({ e: k.endpointId, k: k.key }))),
    now,
  });
}

/** Recording's dialect, bound once: one process, so no locks; the batch finish and promote above. */
const RECORD: RecordDialect<SqliteScope> = { capsAcrossWorkers: false, finishBatch, promoteKeys };

/** Whether the record's worker holds its delivery's lease, taken before this attempt (attempt_count n - 1). */
function holds(leases: LeaseTable, r: AttemptRecord): boolean {
  const l = leases.heldBy(r.attempt.deliveryId, r.workerId);
  return l !== undefined && l.attemptCount === r.attempt.n - 1;
}

/** The leases go once the records are committed (kept if the commit fails, so a retry still holds them). */
export async function recordAttempts(
  s: SqliteScope,
  records: AttemptRecord[],
  now: number,
): Promise<HealthTransition[]> {
  const out = await recordAttemptsIn(s, RECORD, records, now);
  for (const r of records) if (holds(s.leases, r)) s.leases.drop(r.attempt.deliveryId);
  return out;
}

export async function holdDeliveries(
  { db, leases }: SqliteScope,
  ids: string[],
  workerId: string,
  until: number,
  now: number,
): Promise<void> {
  const held = ids.filter((id) => leases.heldBy(id, workerId));
  if (held.length === 0) return;
  await db.run('hold-deliveries', { ids: held, worker: workerId, until, now });
  for (const id of held) leases.drop(id);
}

export async function endDeliveries(
  { db, leases }: SqliteScope,
  ids: string[],
  workerId: string | null,
  status: 'failed' | 'skipped',
  reason: string,
  now: number,
  options?: { summarise?: boolean },
): Promise<void> {
  const leased = workerId === null ? [] : ids.filter((id) => leases.heldBy(id, workerId));
  const held = new Set(leased);
  await endDeliveriesIn(db, false, ids, workerId, status, reason, now, { ...options, leased });
  // Ended by anyone: whoever held the lease records nothing more for it (the row is terminal either way).
  for (const id of ids) if (workerId === null || held.has(id)) leases.drop(id);
}

export async function releaseLeases(
  { db, leases }: SqliteScope,
  ids: string[],
  workerId: string,
  now: number,
): Promise<number> {
  let n = 0;
  for (const id of ids) if (leases.heldBy(id, workerId) && leases.drop(id)) n++;
  return n + (await releaseRowLeases(db, ids, workerId, now));
}

/** Leases in memory that lapsed (a stalled worker) end here; rows still leased on disk (a test delivery) by SQL. */
export async function releaseExpiredLeases({ db, leases }: SqliteScope, now: number): Promise<number> {
  return leases.dropWhere((l) => l.until < now) + (await releaseExpiredRowLeases(db, now));
}

/** At a worker's start: any lease still in memory, and any row an older version left `delivering`. */
export async function releaseAllLeases({ db, leases }: SqliteScope, now: number): Promise<number> {
  return leases.dropWhere(() => true) + (await releaseAllRowLeases(db, now));
}

export async function countInFlight({ db, leases }: SqliteScope, endpointId: string): Promise<number> {
  return leases.countForEndpoint(endpointId) + (await countRowsInFlight(db, endpointId));
}

export async function findKeyHead({ db, leases }: SqliteScope, endpointId: string, orderingKey: string) {
  const head = await findKeyHeadRow(db, endpointId, orderingKey);
  if (head) head.status = leases.status(head.id, head.status);
  return head;
}
