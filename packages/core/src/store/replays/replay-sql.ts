// The replays part's SQL: window, single and catch-up replays (one selection
// under one quota check for both window kinds, docs/rules.md#replay-quota), and ordered dismissals.

import type { EndpointPatch } from '../catalog/catalog-store.ts';
import { writeEndpointPatch } from '../catalog/endpoint-patch.ts';
import { endpointFromRow } from '../catalog/endpoint-rows.ts';
import type { SqlExecutor } from '../sql-driver.ts';
import type { StoreScope } from '../store-scope.ts';
import { replayFromRow, replayToRow } from './replay-rows.ts';
import type { CatchUpResult, ReplayQuota, ReplayRow, WindowReplayResult } from './replay-store.ts';

export async function createReplay({ db }: StoreScope, replay: ReplayRow): Promise<void> {
  await db.run('insert-replay', replayToRow(replay));
}
export async function getReplay({ db }: StoreScope, tenantId: string, id: string): Promise<ReplayRow | null> {
  const [r] = await db.all('get-replay', { tenant_id: tenantId, id });
  return r ? replayFromRow(r) : null;
}

export function scheduleWindowReplay(
  { db }: StoreScope,
  replay: ReplayRow,
  limit: number,
  now: number,
  quota?: ReplayQuota,
): Promise<WindowReplayResult> {
  return underQuota(
    db.transaction(async (tx): Promise<WindowReplayResult> => {
      return { kind: 'scheduled', selected: await scheduleWindow(tx, replay, limit, now, quota, 'window') };
    }),
  );
}

export function reactivateWithCatchUp(
  { db }: StoreScope,
  tenantId: string,
  id: string,
  patch: EndpointPatch,
  replay: ReplayRow,
  limit: number,
  now: number,
  quota?: ReplayQuota,
): Promise<CatchUpResult> {
  return underQuota(
    db.transaction(async (tx): Promise<CatchUpResult> => {
      const [r] = await tx.all('get-endpoint', { tenant_id: tenantId, id });
      if (!r) return { kind: 'not_found' };
      const cur = endpointFromRow(r);
      if (cur.status !== 'paused') return { kind: 'not_paused', status: cur.status };
      const endpoint = (await writeEndpointPatch(tx, tenantId, id, patch, now))!;
      // Everything that failed or was skipped since the pause began, by when it last changed (docs/rules.md#catch-up).
      const scheduled: ReplayRow = {
        ...replay,
        sinceMs: cur.pausedAt ?? cur.updatedAt,
        untilMs: now,
        includeSkipped: true,
      };
      scheduled.selected = await scheduleWindow(tx, scheduled, limit, now, quota, 'catch-up');
      return { kind: 'scheduled', endpoint, replay: scheduled };
    }),
  );
}

/** A window replay's transaction, with a rollback over the quota answered as `quota_exceeded`. */
function underQuota<T>(scheduling: Promise<T>): Promise<T | { kind: 'quota_exceeded'; used: number }> {
  return scheduling.catch((err) => {
    if (err instanceof QuotaExceeded) return { kind: 'quota_exceeded', used: err.used } as const;
    throw err;
  });
}

/**
 * Inserts the replay and selects its deliveries (a catch-up's by last change), under the quota: the one place both
 * window kinds count it. Throws QuotaExceeded (rolling back) when it selected something over the quota.
 */
async function scheduleWindow(
  tx: SqlExecutor,
  replay: ReplayRow,
  limit: number,
  now: number,
  quota: ReplayQuota | undefined,
  selection: 'window' | 'catch-up',
): Promise<number> {
  let used = 0;
  if (quota) {
    // Serialises the tenant's window replays until commit, so the count below cannot go stale.
    await tx.all('lock-tenant-replays', { tenant_id: replay.tenantId });
    const [r] = await tx.all('count-window-replays', { tenant_id: replay.tenantId, since: quota.since });
    used = Number(r?.n ?? 0);
  }
  await tx.run('insert-replay', replayToRow(replay));
  const params = {
    replay_id: replay.id,
    endpoint_id: replay.endpointId,
    since: replay.sinceMs,
    until: replay.untilMs,
    include_skipped: replay.includeSkipped ? 1 : 0,
    limit,
    now,
  };
  const n =
    selection === 'catch-up'
      ? await tx.run('schedule-catch-up-replay', params)
      : await tx.run('schedule-window-replay', params);
  if (quota && n > 0 && used >= quota.max) throw new QuotaExceeded(used);
  await tx.run('set-replay-selected', { id: replay.id, selected: n });
  return n;
}

export function scheduleSingleReplay(
  { db }: StoreScope,
  replay: ReplayRow,
  deliveryId: string,
  now: number,
): Promise<boolean> {
  return db
    .transaction(async (tx) => {
      await tx.run('insert-replay', replayToRow({ ...replay, selected: 1 }));
      const n = await tx.run('schedule-single-replay', { replay_id: replay.id, id: deliveryId, now });
      if (n === 0) throw new ReplayNotScheduled();
      return true;
    })
    .catch((err) => {
      if (err instanceof ReplayNotScheduled) return false;
      throw err;
    });
}

export async function dismissDelivery({ db }: StoreScope, tenantId: string, id: string, now: number): Promise<boolean> {
  return (await db.run('dismiss-delivery', { tenant_id: tenantId, id, now })) > 0;
}

class ReplayNotScheduled extends Error {}
/** Rolls back a window replay over the quota (nothing it selected stays scheduled). */
class QuotaExceeded extends Error {
  constructor(readonly used: number) {
    super('replay quota exceeded');
  }
}
