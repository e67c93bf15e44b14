// The retention part of the store: what the maintenance pass forgets once it is old enough (docs/rules.md#retention).

export interface RetentionStore {
  /** Deletes up to `batch` terminal deliveries (attempts cascade) last touched before `before`; the count. */
  purgeDeliveries(before: number, batch: number): Promise<number>;
  /** Deletes events older than `before` that no longer have deliveries; the count. */
  purgeEvents(before: number, batch: number): Promise<number>;
  /** Deletes up to `batch` per-minute counter rows of minutes before `before` (ms); the count. */
  purgeDeliveryMinutes(before: number, batch: number): Promise<number>;
  /** Deletes tenants' daily counts of UTC days that started before `before`; the count. */
  purgeTenantUsage(before: number): Promise<number>;
  /** Deletes breaker window rows last attempted before `before`; the count. */
  purgeBreakerWindow(before: number): Promise<number>;
  /** Deletes sent and abandoned outbox rows last touched before `before`; the count. */
  purgeOutbox(before: number): Promise<number>;
  /** Forgets console portal links that expired before `before`, used or not; the count. */
  purgePortalLinks(before: number): Promise<number>;
  /** Forgets idempotency records (docs/svix-compatibility.md#idempotency) whose 12 h ended by `now`; the count. */
  purgeIdempotencyKeys(now: number): Promise<number>;
}
