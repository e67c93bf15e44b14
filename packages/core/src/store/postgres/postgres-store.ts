// Opens the PostgreSQL store: SqlStore over a PostgresDriver, migrated, with LISTEN/NOTIFY wake-ups (onDue), and the
// two hot writes (accepting a batch, recording a batch of attempts) as multi-row statements.
import * as rows from '../rows.ts';
import type { SqlExecutor } from '../sql-driver.ts';
import type { FinishedRow } from '../sql-parts/record-attempts.ts';
import { SqlStore } from '../sql-store.ts';
import type { AcceptResult, AttemptRecord, IngestLimits, NewEvent } from '../store.ts';
import { admitEvents } from '../tenant-limits.ts';
import { PostgresDriver, type PostgresOptions } from './postgres-driver.ts';
import { upkeepWarnings } from './upkeep-warnings.ts';

/**
 * SqlStore plus what only PostgreSQL adds: other processes' due work wakes this one's dispatcher, and the hot writes
 * go as one `unnest` statement per table instead of one statement per row. Every round trip of a transaction holds
 * its row locks (the endpoint rows of a record batch) for longer, and worker processes queue on those locks, so
 * fewer round trips is what lets workers scale. Batches with ordering keys keep SqlStore's row-by-row path (they
 * number each delivery under its key's lock).
 */
export class PostgresStore extends SqlStore {
  constructor(readonly pg: PostgresDriver) {
    super(pg);
  }

  onDue(cb: () => void): () => void {
    return this.pg.onDue(cb);
  }

  /**
   * Refuses a database where a COMMIT can return before it is on disk: a 202 is given once COMMIT returns
   * (docs/rules.md#accepted-on-disk), so `synchronous_commit = off`, `fsync = off` or `full_page_writes = off` (for
   * the server, this database or this role) would acknowledge events a crash can lose.
   */
  async checkDurability(): Promise<void> {
    const [s] = await this.pg.transaction((tx) => tx.all('durability-settings'));
    const off = (['synchronous_commit', 'fsync', 'full_page_writes'] as const).filter((k) => s?.[k] === 'off');
    if (off.length > 0)
      throw new Error(
        `PostgreSQL has ${off.map((k) => `${k} = off`).join(', ')} for this database or role: a commit could be answered before it is on disk; set ${off.length > 1 ? 'them' : 'it'} back to on (docs/deploy.md#postgresql)`,
      );
  }

  /** What the operator should be told at start about PostgreSQL's own upkeep (autovacuum off); never refused. */
  async upkeepWarnings(): Promise<string[]> {
    const [s] = await this.pg.transaction((tx) => tx.all('upkeep-settings'));
    return upkeepWarnings(s ?? {});
  }

  override async acceptEvents(batch: NewEvent[], limits?: IngestLimits): Promise<AcceptResult[]> {
    if (batch.length === 0) return [];
    if (batch.some((ne) => ne.deliveries.some((d) => d.orderingKey !== undefined)))
      return super.acceptEvents(batch, limits);
    return this.pg.transaction(async (tx) => {
      // The tenants' limits first (docs/rules.md#tenant-limits): a refused event is not inserted.
      const admission = await admitEvents(tx, batch, limits);
      const events = admission.events;
      if (events.length === 0) return admission.finish(tx, []);
      const evRows = events.map((ne) => rows.eventToRow(ne.event, ne.bodyHash));
      const col = (k: string) => evRows.map((r) => r[k]);
      const created = new Set(
        (
          await tx.all<{ id: string }>('insert-events', {
            ids: col('id'),
            tenant_ids: col('tenant_id'),
            event_ids: col('event_id'),
            types: col('type'),
            versions: col('version'),
            occurred_ats: col('occurred_at'),
            bodies: col('body'),
            body_hashes: col('body_hash'),
            payload_formats: col('payload_format'),
            is_moneys: col('is_money'),
            ordering_keys: col('ordering_key'),
            traceparents: col('traceparent'),
            tracestates: col('tracestate'),
            created_ats: col('created_at'),
          })
        ).map((r) => r.id),
      );
      const ds = events.flatMap((ne) => (created.has(ne.event.id) ? ne.deliveries.map((d) => ({ ne, d })) : []));
      if (ds.length > 0) {
        await tx.run('insert-deliveries', {
          ids: ds.map(({ d }) => d.id),
          tenant_ids: ds.map(({ ne }) => ne.event.tenantId),
          event_pks: ds.map(({ ne }) => ne.event.id),
          endpoint_ids: ds.map(({ d }) => d.endpointId),
          statuses: ds.map(({ d }) => (d.lease ? 'delivering' : d.status)),
          is_moneys: ds.map(({ ne }) => (ne.event.isMoney ? 1 : 0)),
          next_attempt_ats: ds.map(({ d }) => d.nextAttemptAt),
          lease_untils: ds.map(({ d }) => d.lease?.until ?? null),
          leased_bys: ds.map(({ d }) => d.lease?.workerId ?? null),
          nows: ds.map(({ ne }) => ne.event.createdAt),
        });
      }
      const out: AcceptResult[] = [];
      for (const ne of events) {
        const ev = ne.event;
        if (!created.has(ev.id)) {
          // Already there (an earlier call, or earlier in this batch): the same body answers what it created.
          const [existing] = await tx.all('find-event', { tenant_id: ev.tenantId, event_id: ev.eventId });
          if (!existing || existing.body_hash !== ne.bodyHash) out.push({ kind: 'conflict', eventId: ev.eventId });
          else
            out.push({
              kind: 'existing',
              event: rows.eventFromRow(existing),
              deliveries: (await tx.all('event-deliveries', { event_pk: existing.id })).map(rows.deliveryFromRow),
            });
          continue;
        }
        const deliveries = ne.deliveries.map((d) => rows.newDelivery(ev, d));
        out.push({ kind: 'created', event: ev, deliveries });
      }
      return admission.finish(tx, out);
    });
  }

  /**
   * A batch of records in two statements (finish-attempts, insert-attempts over unnest) instead of two per record;
   * the finish returns the held periods it clears, which the attempts take over.
   * Ordered deliveries, and a delivery twice in one batch (finished twice, in order), keep the row-by-row path.
   */
  protected override async finishBatch(
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
    const at = ordered.map((r) => rows.attemptToRow(r.attempt));
    const col = (k: string) => at.map((r) => r[k]);
    // Each attempt takes over the held period its finish cleared (none when the lease was lost).
    const held = (k: 'held_since' | 'held_until') =>
      ordered.map((r) => finished.get(r.attempt.deliveryId)?.[k] ?? null);
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
}

/**
 * `const store = await openPostgresStore('postgres://hookline@db/hookline')` — pooled, statement timeouts on,
 * refused when commits would not be durable, migrated (once, even when several processes start together).
 */
export async function openPostgresStore(url: string, options: PostgresOptions = {}): Promise<PostgresStore> {
  const store = new PostgresStore(new PostgresDriver(url, options));
  try {
    await store.checkDurability();
    await store.migrate();
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
  return store;
}
