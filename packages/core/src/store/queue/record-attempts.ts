// Recording a dispatcher's batch of attempts in one transaction (the hot path), shared by both dialects' queues: each
// finishes a whole batch in a few statements of its own (RecordDialect.finishBatch).
import { HealthBatch } from '../health-batch.ts';
import { cmp, lockKey } from '../listing.ts';
import { counterSlot, MinuteCounts } from '../minute-counts.ts';
import { addToFailureSummaries } from '../outbox-writes.ts';
import type { SqlExecutor } from '../sql-driver.ts';
import type { StoreScope } from '../store-scope.ts';
import { attemptToRow } from './delivery-rows.ts';
import type { AttemptRecord, HealthTransition } from './queue-store.ts';

/** A delivery finish-attempt changed: its id and ordering key, and (PostgreSQL) the held period it cleared. */
export interface FinishedRow {
  id: string;
  ordering_key: string | null;
  held_since?: number | string | null;
  held_until?: number | string | null;
}

/** What recording asks of each dialect's queue: whether keys and endpoints are locked, and its batch finish. */
export interface RecordDialect<S extends StoreScope = StoreScope> {
  readonly capsAcrossWorkers: boolean;
  /**
   * Finishes every record's delivery and inserts every attempt of a batch at once, or returns null to have
   * recordAttemptsIn do it one record at a time (finish-attempt, insert-attempt). The map holds the deliveries that
   * finished (the lease still held), by id.
   */
  finishBatch(
    s: S,
    tx: SqlExecutor,
    records: readonly AttemptRecord[],
    now: number,
  ): Promise<Map<string, FinishedRow> | null>;
  /**
   * Makes the next delivery of each key due (the keys whose delivery this batch ended, each once) in one statement;
   * absent: promote-next-of-key runs per record, as each one ends (PostgreSQL, under each key's lock).
   */
  promoteKeys?(tx: SqlExecutor, keys: ReadonlyArray<{ endpointId: string; key: string }>, now: number): Promise<void>;
}

/** finish-attempt's parameters for one record (all but :now). */
export function finishParams(rec: AttemptRecord) {
  const a = rec.attempt;
  const next = rec.next;
  return {
    id: a.deliveryId,
    worker: rec.workerId,
    attempt_count: a.n - 1,
    status: next.status,
    ladder: next.status === 'pending' ? next.ladder : null,
    next_attempt_at: next.status === 'pending' ? next.nextAttemptAt : null,
    terminal_reason: next.status === 'failed' ? next.reason : null,
    fast_failures: rec.progress.fastFailures,
    slow_failures: rec.progress.slowFailures,
    slow_started_at: rec.progress.slowStartedAt,
    first_attempt_at: rec.progress.firstAttemptAt,
    last_attempt_at: a.startedAt,
  };
}

export async function recordAttemptsIn<S extends StoreScope>(
  s: S,
  dialect: RecordDialect<S>,
  records: AttemptRecord[],
  now: number,
): Promise<HealthTransition[]> {
  if (records.length === 0) return [];
  return s.db.transaction(async (tx) => {
    // Keys first (before any endpoint or delivery row, in the accept's sorted order): an accept numbering a key's next
    // delivery and this commit ending its head never interleave, so a waiting delivery is never left unpromoted.
    const keys = [
      ...new Set(
        records
          .filter((r) => r.ordering && r.next.status !== 'pending')
          .map((r) => `${r.ordering!.endpointId}\u0000${r.ordering!.key}`),
      ),
    ];
    if (dialect.capsAcrossWorkers) for (const k of keys.sort(cmp)) await lockKey(tx, k);
    const health = new HealthBatch(tx, now, dialect.capsAcrossWorkers);
    // Breaker window rows, keyed scope|delivery: the latest attempt of each delivery in this batch.
    const window = new Map<string, { scopeKey: string; deliveryId: string; at: number; failed: number }>();
    // One lock order for every process (endpoint rows, then delivery rows, then window rows): concurrent commits of
    // several workers on a shared database wait for each other instead of deadlocking.
    const ordered = [...records].sort(
      (x, y) => cmp(x.attempt.endpointId, y.attempt.endpointId) || cmp(x.attempt.deliveryId, y.attempt.deliveryId),
    );
    // Deliveries that end failed by this batch (not replays: a failed replay is no news), for their endpoints' summaries.
    const failed: string[] = [];
    // The per-minute counters (docs/rules.md#stats-counters); one slot per worker where several share the database.
    const counts = new MinuteCounts();
    // The keys whose next delivery becomes due, for a dialect that promotes a whole batch's keys at once.
    const promote = new Map<string, { endpointId: string; key: string }>();
    // A dialect that finishes a whole batch in a few statements (SQLite, PostgreSQL) does it here, before the loop.
    const batchFinished = await dialect.finishBatch(s, tx, ordered, now);
    // The endpoint rows: before the row-by-row finishes below (endpoint rows, then delivery rows, then window rows),
    // or after a batch finish, whose delivery rows are leased to this worker alone: workers then queue on a shared
    // endpoint row only for the health update and the COMMIT, not for the whole batch. A delete of the endpoint
    // meanwhile, which locks the other way round, is a deadlock PostgreSQL breaks and the transaction runs again.
    for (const rec of ordered) {
      if (rec.health && (!batchFinished || batchFinished.has(rec.attempt.deliveryId))) {
        health.expect(rec.attempt, rec.health, rec.previousAttemptAt ?? null);
      }
    }
    await health.load();
    for (const rec of ordered) {
      const a = rec.attempt;
      const next = rec.next;
      let finished: FinishedRow | undefined;
      if (batchFinished) finished = batchFinished.get(a.deliveryId);
      else {
        // The delivery first: its row lock holds off a concurrent delete until the attempt is in (PostgreSQL).
        [finished] = await tx.all<FinishedRow>('finish-attempt', { ...finishParams(rec), now });
        // Skipped when the delivery is gone, or already on record (a retried commit). It takes over the held
        // period the finish cleared (PostgreSQL's finish-attempt returns it; none when the lease was lost).
        await tx.run('insert-attempt', {
          ...attemptToRow(a),
          held_since: finished?.held_since ?? null,
          held_until: finished?.held_until ?? null,
        });
      }
      if (!finished) continue; // the lease was lost (the attempt stays on record, the new holder decides), or the delivery is gone
      counts.add(a, next.status, dialect.capsAcrossWorkers ? counterSlot(rec.workerId) : 0);
      if (finished.ordering_key != null && next.status !== 'pending') {
        if (dialect.promoteKeys)
          promote.set(`${a.endpointId}\u0000${finished.ordering_key}`, {
            endpointId: a.endpointId,
            key: finished.ordering_key,
          });
        else
          await tx.run('promote-next-of-key', { endpoint_id: a.endpointId, ordering_key: finished.ordering_key, now });
      }
      if (next.status === 'failed' && !rec.replayId) failed.push(a.deliveryId);
      if (rec.replayId) {
        await tx.run('bump-replay', {
          id: rec.replayId,
          succeeded: a.outcome === 'success' ? 1 : 0,
          failed: a.outcome === 'success' ? 0 : 1,
        });
      }
      if (rec.health) await health.apply(a, rec.health, rec.previousAttemptAt ?? null);
      if (rec.breakerScope) {
        window.set(`${rec.breakerScope}|${a.deliveryId}`, {
          scopeKey: rec.breakerScope,
          deliveryId: a.deliveryId,
          at: a.startedAt,
          failed: a.outcome === 'delivery_failure' ? 1 : 0,
        });
      }
    }
    if (promote.size > 0) await dialect.promoteKeys!(tx, [...promote.values()], now);
    if (window.size > 0) {
      const rows = [...window].sort(([x], [y]) => cmp(x, y)).map(([, w]) => w);
      await tx.run('put-breaker-deliveries', {
        rows: JSON.stringify(
          rows.map((w) => ({ scope_key: w.scopeKey, delivery_id: w.deliveryId, attempted_at: w.at, failed: w.failed })),
        ),
      });
    }
    const transitions = await health.flush();
    await addToFailureSummaries(tx, failed, now);
    await counts.write(tx);
    return transitions;
  });
}
