// The outbox-and-notices part of SqlStore as functions over the driver: notices, and the notification outbox the
// drainer leases, sends and retries (its rows are written by the transitions' own transactions, outbox-writes.ts).

import { incidentOfNotice } from '../endpoint-incidents.ts';
import { flushDueSummaries } from '../outbox-writes.ts';
import type { Notice, OutboxRow } from '../parts/outbox-store.ts';
import type { Page } from '../parts/page.ts';
import * as rows from '../rows.ts';
import type { SqlDriver, SqlExecutor } from '../sql-driver.ts';
import { cmp, page } from './listing.ts';

// notices
/** Records a notice with its incident (docs/rules.md#notifications): a recovery that held resolves the incident's notices. */
export function addNotice(db: SqlDriver, notice: Omit<Notice, 'environment' | 'resolvedAt'>): Promise<void> {
  return db.transaction(async (tx) => {
    const resolvedAt = await incidentOfNotice(tx, notice);
    await tx.run('insert-notice', rows.noticeToRow({ ...notice, resolvedAt }));
  });
}
export async function listNotices(
  db: SqlExecutor,
  tenantId: string,
  cursor: string | null,
  limit: number,
): Promise<Page<Notice>> {
  const rs = await db.all('list-notices', { tenant_id: tenantId, before: cursor ?? '~', limit: limit + 1 });
  return page(rs.map(rows.noticeFromRow), limit);
}

// the notification outbox
export async function claimOutbox(db: SqlDriver, now: number, limit: number, leaseUntil: number): Promise<OutboxRow[]> {
  const rs = await db.transaction((tx) => tx.all('claim-outbox', { now, limit, lease_until: leaseUntil }), {
    durable: false,
  });
  return rs.map(rows.outboxFromRow).sort((a, b) => a.dueAt - b.dueAt || cmp(a.id, b.id));
}
export async function finishOutbox(db: SqlExecutor, id: string, now: number): Promise<boolean> {
  return (await db.run('finish-outbox', { id, now })) > 0;
}
export async function retryOutbox(
  db: SqlExecutor,
  id: string,
  outcome: { dueAt: number } | { abandon: true },
  error: string,
  now: number,
): Promise<void> {
  const abandon = 'abandon' in outcome;
  await db.run('retry-outbox', {
    id,
    status: abandon ? 'abandoned' : 'pending',
    due_at: abandon ? now : outcome.dueAt,
    error: error.slice(0, 1000),
    now,
  });
}
export function releaseOutboxLeases(db: SqlExecutor): Promise<number> {
  return db.run('release-outbox-leases');
}
export function flushFailureSummaries(db: SqlDriver, now: number, windowMs: number): Promise<number> {
  return db.transaction((tx) => flushDueSummaries(tx, now, windowMs, 500));
}
