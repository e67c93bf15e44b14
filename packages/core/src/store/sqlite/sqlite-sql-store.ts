// The SqlStore over a SQLite file: the shared logic, with SQLite's multi-row statements where a batch would otherwise
// cost one statement per row (the store thread's time per delivery, docs/performance.md), and the delivery leases held
// in memory instead of in the rows (docs/rules.md#sqlite-leases): the queue's lease operations are overridden here,
// the reads that show leases merge them in (sqlite-lease-reads.ts).

import type { DeliveryStatus, Environment } from '../../domain.ts';
import type { ClaimOptions } from '../parts/delivery-queue-store.ts';
import type { DeliveryWindow } from '../parts/message-read-store.ts';
import type { DeliveryFilter } from '../parts/reporting-store.ts';
import { applyRateLimits } from '../rate-limited-claim.ts';
import * as rows from '../rows.ts';
import type { SqlExecutor } from '../sql-driver.ts';
import * as queue from '../sql-parts/delivery-queue.ts';
import { type FinishedRow, finishParams } from '../sql-parts/record-attempts.ts';
import { SqlStore } from '../sql-store.ts';
import type {
  AcceptResult,
  AttemptRecord,
  ClaimedDelivery,
  HealthTransition,
  IngestLimits,
  NewEvent,
} from '../store.ts';
import { LeaseTable } from './lease-table.ts';
import type { SqliteDriver } from './sqlite-driver.ts';
import * as leaseReads from './sqlite-lease-reads.ts';

export class SqliteSqlStore extends SqlStore {
  /** The deliveries leased right now, on this store's thread (one owner process per file). */
  readonly leases = new LeaseTable();
  readonly #driver: SqliteDriver;

  constructor(driver: SqliteDriver) {
    super(driver);
    this.#driver = driver;
    this.leases.register(driver.db);
  }

  // the delivery queue, with the leases in memory

  /**
   * Reads the due rows and leases them here: no row is written (rate limits aside, which defer the rows past the
   * bucket). The leases are noted before the rate limit runs, so its backlog deferral passes over this claim's rows as it
   * passed over `delivering` ones, and dropped again if the claim does not commit.
   */
  override async claimDue(o: ClaimOptions): Promise<ClaimedDelivery[]> {
    const added: string[] = [];
    try {
      return await this.#driver.transaction(
        async (tx) => {
          const due = await tx.all<{ id: string }>('claim-due', {
            now: o.now,
            limit: o.limit,
            saturated: [...o.saturatedEndpoints],
          });
          if (due.length === 0) return [];
          const read = await this.claimedDeliveries(
            tx,
            due.map((c) => c.id),
          );
          for (const c of read) {
            const d = c.delivery;
            this.leases.add(d.id, {
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
            for (const c of read) if (!stay.has(c.delivery.id)) this.leases.drop(c.delivery.id);
          }
          return kept;
          // Nothing here needs an fsync: the rate limit's deferrals may be lost in an OS crash like any lease.
        },
        { durable: false },
      );
    } catch (err) {
      for (const id of added) this.leases.drop(id);
      throw err;
    }
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
   * A batch of records, two prepared statements per record bound straight from the record (eachRow): every attempt
   * inserted (insert-attempt-leased, idempotent) and then every delivery finished (finish-attempt-leased, the same
   * conditions as finish-attempt). Bound per row rather than one statement over a JSON array: SQLite parses the JSON
   * text again for every field it extracts, which cost more store-thread time per delivery than the statements' own
   * work (docs/performance.md). The inserts go first so that an attempt takes over its delivery's held period before
   * the finish clears it (SQLite's RETURNING gives only the new values). A SQLite file has one writer at a time, so the
   * per-row lock order PostgreSQL needs does not arise.
   */
  protected override async finishBatch(
    _tx: SqlExecutor,
    records: readonly AttemptRecord[],
    now: number,
  ): Promise<Map<string, FinishedRow>> {
    const attempts: Record<string, unknown>[] = [];
    const finishes: Record<string, unknown>[] = [];
    for (const r of records) {
      const leased = this.#holds(r) ? 1 : 0;
      // Added to the rows, not spread into copies: a copy per record costs the store thread measurably.
      const row = rows.attemptToRow(r.attempt);
      row.worker = r.workerId;
      row.leased = leased;
      attempts.push(row);
      const p: Record<string, unknown> = finishParams(r);
      p.leased = leased;
      p.now = now;
      finishes.push(p);
    }
    this.#driver.eachRow('insert-attempt-leased', attempts);
    const finished = this.#driver.eachRow<FinishedRow>('finish-attempt-leased', finishes);
    return new Map(finished.map((f) => [f.id, f]));
  }

  /** Every key a batch of records ended a delivery of: their next deliveries due in one statement (promote-next-of-keys). */
  protected override async promoteKeys(
    tx: SqlExecutor,
    keys: ReadonlyArray<{ endpointId: string; key: string }>,
    now: number,
  ): Promise<void> {
    await tx.run('promote-next-of-keys', {
      keys: JSON.stringify(keys.map((k) => ({ e: k.endpointId, k: k.key }))),
      now,
    });
  }

  /** Whether the record's worker holds its delivery's lease, taken before this attempt (attempt_count n - 1). */
  #holds(r: AttemptRecord): boolean {
    const l = this.leases.heldBy(r.attempt.deliveryId, r.workerId);
    return l !== undefined && l.attemptCount === r.attempt.n - 1;
  }

  /** The leases go once the records are committed (kept if the commit fails, so a retry still holds them). */
  override async recordAttempts(records: AttemptRecord[], now: number): Promise<HealthTransition[]> {
    const out = await super.recordAttempts(records, now);
    for (const r of records) if (this.#holds(r)) this.leases.drop(r.attempt.deliveryId);
    return out;
  }

  override async holdDeliveries(ids: string[], workerId: string, until: number, now: number): Promise<void> {
    const held = ids.filter((id) => this.leases.heldBy(id, workerId));
    if (held.length === 0) return;
    await this.#driver.run('hold-deliveries', { ids: held, worker: workerId, until, now });
    for (const id of held) this.leases.drop(id);
  }

  override async endDeliveries(
    ids: string[],
    workerId: string | null,
    status: 'failed' | 'skipped',
    reason: string,
    now: number,
    options?: { summarise?: boolean },
  ): Promise<void> {
    const leased = workerId === null ? [] : ids.filter((id) => this.leases.heldBy(id, workerId));
    const held = new Set(leased);
    await queue.endDeliveries(this.#driver, false, ids, workerId, status, reason, now, { ...options, leased });
    // Ended by anyone: whoever held the lease records nothing more for it (the row is terminal either way).
    for (const id of ids) if (workerId === null || held.has(id)) this.leases.drop(id);
  }

  override async releaseLeases(ids: string[], workerId: string, now: number): Promise<number> {
    let n = 0;
    for (const id of ids) if (this.leases.heldBy(id, workerId) && this.leases.drop(id)) n++;
    return n + (await super.releaseLeases(ids, workerId, now));
  }

  /** Leases in memory that lapsed (a stalled worker) end here; rows still leased on disk (a test delivery) by SQL. */
  override async releaseExpiredLeases(now: number): Promise<number> {
    return this.leases.dropWhere((l) => l.until < now) + (await super.releaseExpiredLeases(now));
  }

  /** At a worker's start: any lease still in memory, and any row an older version left `delivering`. */
  override async releaseAllLeases(now: number): Promise<number> {
    return this.leases.dropWhere(() => true) + (await super.releaseAllLeases(now));
  }

  override async countInFlight(endpointId: string): Promise<number> {
    return this.leases.countForEndpoint(endpointId) + (await super.countInFlight(endpointId));
  }

  override async findKeyHead(endpointId: string, orderingKey: string) {
    const head = await super.findKeyHead(endpointId, orderingKey);
    if (head && this.leases.get(head.id)) head.status = 'delivering' satisfies DeliveryStatus;
    return head;
  }

  override async deleteEndpoint(tenantId: string, id: string): Promise<boolean> {
    const gone = await super.deleteEndpoint(tenantId, id);
    if (gone) this.leases.dropWhere((l) => l.endpointId === id);
    return gone;
  }

  override async deleteTenant(id: string): Promise<boolean> {
    const gone = await super.deleteTenant(id);
    if (gone) this.leases.dropWhere((l) => l.tenantId === id);
    return gone;
  }

  // reads that show a leased delivery as delivering

  override async getDelivery(tenantId: string, id: string) {
    const d = await super.getDelivery(tenantId, id);
    return d && this.leases.overlay(d);
  }
  override async listDeliveries(f: DeliveryFilter, cursor: string | null, limit: number) {
    const p = await super.listDeliveries(f, cursor, limit);
    for (const d of p.items) this.leases.overlay(d);
    return p;
  }
  /** An event posted again answers with its deliveries as they are now: one in flight reads delivering. */
  override async acceptEvents(batch: NewEvent[], limits?: IngestLimits): Promise<AcceptResult[]> {
    const out = await super.acceptEvents(batch, limits);
    if (this.leases.size > 0)
      for (const r of out) if (r.kind === 'existing') for (const d of r.deliveries) this.leases.overlay(d);
    return out;
  }
  override async getEvent(tenantId: string, eventId: string) {
    const e = await super.getEvent(tenantId, eventId);
    if (e) for (const d of e.deliveries) this.leases.overlay(d);
    return e;
  }
  override async messageDestinations(tenantId: string, eventPk: string) {
    const out = await super.messageDestinations(tenantId, eventPk);
    for (const m of out) if (this.leases.get(m.deliveryId)) m.status = 'delivering';
    return out;
  }
  override async endpointMessages(
    tenantId: string,
    endpointId: string,
    w: DeliveryWindow,
    cursor: string | null,
    n: number,
  ) {
    const p = await super.endpointMessages(tenantId, endpointId, w, cursor, n);
    for (const m of p.items) if (this.leases.get(m.deliveryId)) m.status = 'delivering';
    return p;
  }
  override async countByStatus() {
    return leaseReads.countByStatus(this.#driver, this.leases, await super.countByStatus());
  }
  override async countQueued() {
    return leaseReads.countQueued(this.#driver, this.leases, await super.countQueued());
  }
  override async endpointStats(tenantId: string, since: number, now: number) {
    return leaseReads.endpointStats(
      this.#driver,
      this.leases,
      tenantId,
      await super.endpointStats(tenantId, since, now),
    );
  }
}
