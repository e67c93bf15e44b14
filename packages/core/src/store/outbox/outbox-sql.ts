// The outbox-and-notices part's SQL: notices, and the notification outbox the
// drainer leases, sends and retries (its rows are written by the transitions' own transactions, outbox-writes.ts).

import { incidentOfNotice } from '../endpoint-incidents.ts';
import { cmp, page } from '../listing.ts';
import { flushDueSummaries } from '../outbox-writes.ts';
import type { Page } from '../page.ts';
import type { StoreScope } from '../store-scope.ts';
import { noticeFromRow, noticeToRow, outboxFromRow } from './outbox-rows.ts';
import type { Notice, OutboxRow } from './outbox-store.ts';

// notices
/** Records a notice with its incident (docs/rules.md#notifications): a recovery that held resolves the incident's notices. */
export function addNotice({ db }: StoreScope, notice: Omit<Notice, 'environment' | 'resolvedAt'>): Promise<void> {
  return db.transaction(async (tx) => {
    const resolvedAt = await incidentOfNotice(tx, notice);
    await tx.run('insert-notice', noticeToRow({ ...notice, resolvedAt }));
  });
}
export async function listNotices(
  { db }: StoreScope,
  tenantId: string,
  cursor: string | null,
  limit: number,
): Promise<Page<Notice>> {
  const rs = await db.all('list-notices', { tenant_id: tenantId, before: cursor ?? '~', limit: limit + 1 });
  return page(rs.map(noticeFromRow), limit);
}

// the notification outbox
export async function claimOutbox(
  { db }: StoreScope,
  now: number,
  limit: number,
  leaseUntil: number,
): Promise<OutboxRow[]> {
  const rs = await db.transaction((tx) => tx.all('claim-outbox', { now, limit, lease_until: leaseUntil }), {
    durable: false,
  });
  return rs.map(outboxFromRow).sort((a, b) => a.dueAt - b.dueAt || cmp(a.id, b.id));
}
export async function finishOutbox({ db }: StoreScope, id: string, now: number): Promise<boolean> {
  return (await db.run('finish-outbox', { id, now })) > 0;
}
export async function retryOutbox(
  { db }: StoreScope,
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
export function releaseOutboxLeases({ db }: StoreScope): Promise<number> {
  return db.run('release-outbox-leases');
}
export function flushFailureSummaries({ db }: StoreScope, now: number, windowMs: number): Promise<number> {
  return db.transaction((tx) => flushDueSummaries(tx, now, windowMs, 500));
}
