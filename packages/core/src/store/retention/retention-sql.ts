// The retention part's SQL: what the maintenance pass forgets once it is old enough (docs/rules.md#retention).
import type { StoreScope } from '../store-scope.ts';

export function purgeDeliveries({ db }: StoreScope, before: number, batch: number): Promise<number> {
  return db.run('purge-deliveries', { before, batch });
}
export function purgeEvents({ db }: StoreScope, before: number, batch: number): Promise<number> {
  return db.run('purge-events', { before, batch });
}
export function purgeDeliveryMinutes({ db }: StoreScope, before: number, batch: number): Promise<number> {
  return db.run('purge-delivery-minutes', { before_minute: Math.floor(before / 60_000), batch });
}
export function purgeTenantUsage({ db }: StoreScope, before: number): Promise<number> {
  return db.run('purge-tenant-usage', { before });
}
export function purgeBreakerWindow({ db }: StoreScope, before: number): Promise<number> {
  return db.run('purge-breaker-window', { before });
}
export function purgeOutbox({ db }: StoreScope, before: number): Promise<number> {
  return db.run('purge-outbox', { before });
}
export function purgePortalLinks({ db }: StoreScope, before: number): Promise<number> {
  return db.run('purge-portal-links', { before });
}
export function purgeIdempotencyKeys({ db }: StoreScope, now: number): Promise<number> {
  return db.run('purge-idempotency-keys', { now });
}
