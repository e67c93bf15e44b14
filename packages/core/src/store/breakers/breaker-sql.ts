// The breakers-and-health part's SQL: breaker rows (compare-and-set, with their
// notification), windows, held work, and the sweep that pauses endpoints failing for too long.

import { DEFAULTS } from '../../defaults.ts';
import type { Endpoint } from '../../domain.ts';
import { endpointFromRow } from '../catalog/endpoint-rows.ts';
import { writeHealthNotice } from '../endpoint-incidents.ts';
import type { OutboxEntry } from '../outbox/outbox-store.ts';
import { insertOutbox } from '../outbox-writes.ts';
import type { SqlExecutor } from '../sql-driver.ts';
import type { StoreScope } from '../store-scope.ts';
import { breakerFromRow, breakerToRow } from './breaker-rows.ts';
import type { BreakerRow, BreakerWindow } from './breaker-store.ts';

export async function getBreaker({ db }: StoreScope, scopeKey: string): Promise<BreakerRow | null> {
  const [r] = await db.all('get-breaker', { scope_key: scopeKey });
  return r ? breakerFromRow(r) : null;
}
export async function saveBreaker(
  { db }: StoreScope,
  row: BreakerRow,
  expectedUpdatedAt: number | null,
  notify?: OutboxEntry | null,
): Promise<boolean> {
  const params = breakerToRow(row);
  const save = (tx: SqlExecutor) =>
    expectedUpdatedAt === null
      ? tx.run('insert-breaker', params)
      : tx.run('update-breaker', { ...params, expected: expectedUpdatedAt });
  if (!notify) return (await save(db)) > 0;
  return db.transaction(async (tx) => {
    if ((await save(tx)) === 0) return false;
    await insertOutbox(tx, notify);
    return true;
  });
}
export async function breakerWindow({ db }: StoreScope, scopeKey: string, since: number): Promise<BreakerWindow> {
  const [r] = await db.all('breaker-window', { scope_key: scopeKey, since });
  return { deliveries: Number(r?.deliveries ?? 0), failures: Number(r?.failures ?? 0) };
}
export async function resetBreakerWindow({ db }: StoreScope, scopeKey: string): Promise<void> {
  await db.run('reset-breaker-window', { scope_key: scopeKey });
}
export function releaseHeld(
  { db }: StoreScope,
  scope: { tenantId: string } | { endpointId: string },
  now: number,
): Promise<number> {
  return 'tenantId' in scope
    ? db.run('release-held-tenant', { tenant_id: scope.tenantId, now })
    : db.run('release-held-endpoint', { endpoint_id: scope.endpointId, now });
}
export async function listBreakers({ db }: StoreScope, tenantId: string): Promise<BreakerRow[]> {
  return (await db.all('list-breakers', { tenant_id: tenantId })).map(breakerFromRow);
}

// health sweeps
export async function listEndpointsFailingSince({ db }: StoreScope, failingBefore: number): Promise<Endpoint[]> {
  return (await db.all('list-endpoints-failing-since', { before: failingBefore })).map((r) => endpointFromRow(r));
}
export function pauseFailingEndpoint(
  { db }: StoreScope,
  endpointId: string,
  failingSince: number,
  now: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [r] = await tx.all('get-endpoint-by-id', { id: endpointId });
    if (!r || (await tx.run('pause-failing-endpoint', { id: endpointId, failing_since: failingSince, now })) === 0)
      return false;
    const ep = endpointFromRow(r);
    // A pause: the window only matters for recoveries.
    await writeHealthNotice(
      tx,
      { tenantId: ep.tenantId, endpointId, from: 'degraded', to: 'paused', reason: 'failing', at: now },
      ep,
      DEFAULTS.notifications.reopenWindowMs,
    );
    return true;
  });
}
