// The queue's statements over leases kept in rows: all of PostgreSQL's, and SQLite's for the rows an older version or
// a test delivery leased on disk. Each dialect's queue module calls them (postgres-queue.ts, sqlite-queue.ts).
import type { DeliveryStatus } from '../../domain.ts';
import type { SqlExecutor } from '../sql-driver.ts';

export async function releaseRowLeases(db: SqlExecutor, ids: string[], workerId: string, now: number): Promise<number> {
  return ids.length ? db.run('release-leases', { ids, worker: workerId, now }) : 0;
}
export function releaseExpiredRowLeases(db: SqlExecutor, now: number): Promise<number> {
  return db.run('release-expired-leases', { now });
}
export function releaseAllRowLeases(db: SqlExecutor, now: number): Promise<number> {
  return db.run('release-all-leases', { now });
}
export async function countRowsInFlight(db: SqlExecutor, endpointId: string): Promise<number> {
  const [r] = await db.all('count-in-flight', { endpoint_id: endpointId });
  return Number(r?.n ?? 0);
}
/** The delivery an ordering key is at (its head), with the status its row reads. */
export async function findKeyHeadRow(
  db: SqlExecutor,
  endpointId: string,
  orderingKey: string,
): Promise<{ id: string; status: DeliveryStatus } | null> {
  const [r] = await db.all<{ id: string; status: DeliveryStatus }>('find-key-head', {
    endpoint_id: endpointId,
    ordering_key: orderingKey,
  });
  return r ? { id: r.id, status: r.status } : null;
}
