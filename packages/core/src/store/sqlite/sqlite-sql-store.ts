// The SqlStore over a SQLite file: the shared logic, with SQLite's multi-row statements where a batch would otherwise
// cost one statement per row (the store thread's time per delivery, docs/performance.md).

import type { Environment } from '../../domain.ts';
import * as rows from '../rows.ts';
import type { SqlExecutor } from '../sql-driver.ts';
import { type FinishedRow, finishParams } from '../sql-parts/record-attempts.ts';
import { SqlStore } from '../sql-store.ts';
import type { AttemptRecord, ClaimedDelivery } from '../store.ts';
import type { SqliteDriver } from './sqlite-driver.ts';

export class SqliteSqlStore extends SqlStore {
  constructor(driver: SqliteDriver) {
    super(driver);
  }

  /**
   * The claimed rows with their events, and each endpoint of the batch (with its tenant's environment) read once
   * instead of once per row: a claim of 500 rows to one endpoint materialises 500 rows of ~25 columns, not ~45.
   */
  protected override async claimedDeliveries(tx: SqlExecutor, ids: string[]): Promise<ClaimedDelivery[]> {
    const ds = await tx.all('claimed-rows', { ids });
    const endpointIds = [...new Set(ds.map((r) => r.endpoint_id as string))];
    const endpoints = new Map<string, { endpoint: ClaimedDelivery['endpoint']; environment: Environment }>();
    for (const r of await tx.all('claimed-endpoints', { ids: endpointIds })) {
      endpoints.set(r.id, { endpoint: rows.endpointFromRow(r), environment: r.t_environment as Environment });
    }
    const out: ClaimedDelivery[] = [];
    for (const r of ds) {
      const e = endpoints.get(r.endpoint_id);
      if (!e) continue; // cannot happen inside the claim's transaction (deliveries go with their endpoint); as the join did
      out.push({
        delivery: rows.deliveryFromRow(r),
        body: Buffer.isBuffer(r.ev_body) ? r.ev_body : Buffer.from(r.ev_body),
        endpoint: e.endpoint,
        environment: e.environment,
        replayId: r.replay_id ?? null,
        trace: rows.claimedTrace(r),
      });
    }
    return out;
  }

  /**
   * A batch of records in two statements instead of two per record: every attempt inserted (insert-attempts,
   * idempotent) and then every delivery finished (finish-attempts, the same conditions as finish-attempt). The insert
   * goes first so that an attempt takes over its delivery's held period before the finish clears it (SQLite's
   * RETURNING gives only the new values). A SQLite file has one writer at a time, so the per-row lock order PostgreSQL
   * needs does not arise.
   */
  protected override async finishBatch(
    tx: SqlExecutor,
    records: readonly AttemptRecord[],
    now: number,
  ): Promise<Map<string, FinishedRow>> {
    await tx.run('insert-attempts', {
      attempts: records.map((r) => {
        // Added to the row, not spread into a copy: a copy per record costs the store thread measurably.
        const row = rows.attemptToRow(r.attempt);
        row.worker = r.workerId;
        return row;
      }),
    });
    const finished = await tx.all<FinishedRow>('finish-attempts', { records: records.map(finishParams), now });
    return new Map(finished.map((f) => [f.id, f]));
  }
}
