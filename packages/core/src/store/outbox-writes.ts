// Outbox writes made inside another statement's transaction (docs/rules.md#notifications): a transition's notification,
// and deliveries that failed for good added to their endpoint's failure summary.
import { addFailures, emptySummaryState, type FailedDelivery, takeSummary } from './failure-summary.ts';
import { summaryEntry } from './notification-rows.ts';
import { failureSummaryFromRow, failureSummaryToRow, outboxToRow } from './outbox/outbox-rows.ts';
import type { SqlExecutor } from './sql-driver.ts';
import type { OutboxEntry } from './store.ts';

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Due at its creation unless `dueAt` says later (a recovery waits out the reopen window, docs/rules.md#notifications). */
export async function insertOutbox(tx: SqlExecutor, entry: OutboxEntry, dueAt = entry.createdAt): Promise<void> {
  await tx.run('insert-outbox', outboxToRow(entry, dueAt));
}

/**
 * Adds deliveries that just failed for good to their endpoints' summaries, one endpoint at a time in id order (the
 * lock order every writer uses). Only on terminal failures, never per attempt: the hot path does not come here.
 */
export async function addToFailureSummaries(
  tx: SqlExecutor,
  deliveryIds: readonly string[],
  now: number,
): Promise<void> {
  if (deliveryIds.length === 0) return;
  const byEndpoint = new Map<string, { tenantId: string; failed: FailedDelivery[] }>();
  for (const r of await tx.all('failed-briefs', { ids: [...deliveryIds] })) {
    let e = byEndpoint.get(r.endpoint_id);
    if (!e) byEndpoint.set(r.endpoint_id, (e = { tenantId: r.tenant_id, failed: [] }));
    e.failed.push({ deliveryId: r.id, eventId: r.event_id, eventType: r.type, money: Boolean(Number(r.is_money)) });
  }
  for (const [endpointId, e] of [...byEndpoint].sort(([a], [b]) => cmp(a, b))) {
    e.failed.sort((a, b) => cmp(a.deliveryId, b.deliveryId));
    await tx.run('ensure-failure-summary', { endpoint_id: endpointId, tenant_id: e.tenantId });
    const [r] = await tx.all('get-failure-summary', { endpoint_id: endpointId });
    const state = r ? failureSummaryFromRow(r) : emptySummaryState();
    await tx.run('put-failure-summary', failureSummaryToRow(endpointId, addFailures(state, e.failed, now)));
  }
}

/** Every endpoint whose summary is due at `now` gets its `deliveries.failed` row; the count. */
export async function flushDueSummaries(
  tx: SqlExecutor,
  now: number,
  windowMs: number,
  limit: number,
): Promise<number> {
  let n = 0;
  for (const r of await tx.all('due-failure-summaries', { cutoff: now - windowMs, limit })) {
    const taken = takeSummary(failureSummaryFromRow(r), now, windowMs);
    if (!taken) continue;
    await insertOutbox(tx, summaryEntry(r.tenant_id, r.endpoint_id, taken.summary, now));
    await tx.run('put-failure-summary', failureSummaryToRow(r.endpoint_id, taken.next));
    n++;
  }
  return n;
}
