// The retention part of SqlStore as functions over the driver: what the maintenance pass deletes once it is old
// enough (docs/rules.md#retention), each a bounded statement.
import type { SqlExecutor } from '../sql-driver.ts';

export function purgeDeliveries(db: SqlExecutor, before: number, batch: number): Promise<number> {
  return db.run('purge-deliveries', { before, batch });
}
export function purgeEvents(db: SqlExecutor, before: number, batch: number): Promise<number> {
  return db.run('purge-events', { before, batch });
}
export function purgeDeliveryMinutes(db: SqlExecutor, before: number, batch: number): Promise<number> {
  return db.run('purge-delivery-minutes', { before_minute: Math.floor(before / 60_000), batch });
}
export function purgeTenantUsage(db: SqlExecutor, before: number): Promise<number> {
  return db.run('purge-tenant-usage', { before });
}
export function purgeBreakerWindow(db: SqlExecutor, before: number): Promise<number> {
  return db.run('purge-breaker-window', { before });
}
export function purgeOutbox(db: SqlExecutor, before: number): Promise<number> {
  return db.run('purge-outbox', { before });
}
export function purgePortalLinks(db: SqlExecutor, before: number): Promise<number> {
  return db.run('purge-portal-links', { before });
}
export function purgeIdempotencyKeys(db: SqlExecutor, now: number): Promise<number> {
  return db.run('purge-idempotency-keys', { now });
}
