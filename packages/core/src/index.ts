// Public surface of @hookline/core: the engine, its store interface and backends, policies, signing, HTTP client.

export { canonicalJson, entryHash, firstBreak } from './audit/audit-chain.ts';
export { isSecretName, REDACTED, redactValue, rowDiff } from './audit/audit-redaction.ts';
export * from './audit/audit-types.ts';
export { Breaker, type BreakerOptions, type BreakerScopeRef, type BreakerStatus } from './breaker/breaker-gate.ts';
export { type BreakerScope, type BreakerState, scopeKeyOf, scopeOfKey } from './breaker/breaker-rules.ts';
export * from './clock.ts';
export { isPostgresUrl } from './db-url.ts';
export { deepFreeze } from './deep-freeze.ts';
export { DEFAULTS } from './defaults.ts';
export { type Admission, type AdmissionGate, admitWithAgeLimit, openGate } from './dispatch/admission.ts';
export { type DeliverySender, Dispatcher } from './dispatch/dispatcher.ts';
export type { AttemptEvent, DispatchObserver } from './dispatch/observers.ts';
export * from './doctor/index.ts';
export * from './domain.ts';
export * from './duration.ts';
export * from './egress-routes.ts';
export type { HooklineOptions } from './engine-options.ts';
export * from './errors.ts';
export * from './event-type-name.ts';
export {
  FILTER_LIMITS,
  type FilterCondition,
  matchesFilter,
  type PayloadFilter,
  parsePayloadFilter,
} from './filters/payload-filter.ts';
export { GroupCommit } from './group-commit.ts';
export * from './health.ts';
export { createHookline, Hookline } from './hookline.ts';
export { CUSTOM_HEADER_LIMITS, parseCustomHeaders } from './http/custom-headers.ts';
export * from './http/index.ts';
export * from './ids.ts';
export { type EventInput, Ingest, subscribes } from './ingest.ts';
export * from './log-destination.ts';
export * from './logger.ts';
export { sweepHealth } from './maintenance/health-sweep.ts';
export { DEFAULT_RETENTION, type PurgeCounts, purgeExpired, type RetentionOptions } from './maintenance/retention.ts';
export { Maintenance, type MaintenanceOptions, type MaintenanceResult } from './maintenance/runner.ts';
export type { DoctorContract, DoctorEndpointOptions } from './operations/doctor.ts';
export type { EndpointEdit, EndpointInput } from './operations/endpoint-input.ts';
export type { LiveSecret } from './operations/endpoint-secrets.ts';
export type { IdempotentAnswer } from './operations/idempotency.ts';
export type {
  ConsoleGrant,
  ConsoleSession,
  EventSearchHit,
  EventSearchQuery,
  PolicySummary,
  SimulationInput,
} from './operations/index.ts';
export {
  ApiKeyOperations,
  AuditOperations,
  BreakerOperations,
  CONSOLE_SESSION_MAX_MS,
  ConsoleSessionOperations,
  DeliveryOperations,
  DoctorOperations,
  EndpointOperations,
  EndpointSecretOperations,
  EVENT_SEARCH_LIMITS,
  EventOperations,
  EventTypeOperations,
  IDEMPOTENCY_TTL_MS,
  IdempotencyOperations,
  LAST_USED_GRANULARITY_MS,
  MaintenanceOperations,
  MessageOperations,
  NoticeOperations,
  PORTAL_LINK_TTL_MS,
  ProcessOperations,
  portalLinkId,
  ReplayOperations,
  SIMULATION_MAX_RESPONSES,
  SIMULATION_MAX_RUNNING,
  SimulationOperations,
  StatsOperations,
  TenantOperations,
} from './operations/index.ts';
export type { Message, MessageInput } from './operations/messages.ts';
export type { MinuteStats, QueueStats, TenantStats } from './operations/stats.ts';
export type { TenantInput, TenantLimitsPatch, TenantPatch, TenantUsage } from './operations/tenants.ts';
export {
  type DrainResult,
  OutboxDrainer,
  type OutboxDrainerOptions,
  type OutboxHandler,
  outboxRetryDelay,
} from './outbox/outbox-drainer.ts';
export { breakerEntry } from './outbox/outbox-entries.ts';
export * from './policy/index.ts';
export * from './secret-box.ts';
export * from './signing/index.ts';
export {
  addFailures,
  emptySummaryState,
  type FailedDelivery,
  type FailureSummary,
  type FailureSummaryState,
  SUMMARY_MAX_IDS,
  SUMMARY_WINDOW_MS,
  summaryDueAt,
  takeSummary,
} from './store/failure-summary.ts';
export { healthEntry, summaryEntry } from './store/notification-rows.ts';
export { PostgresDriver, type PostgresOptions } from './store/postgres/postgres-driver.ts';
export { openPostgresStore, type PostgresStore } from './store/postgres/postgres-store.ts';
export { backupSqliteFile, SqliteBackupError } from './store/sqlite/sqlite-backup.ts';
export { openSqliteStore } from './store/sqlite/sqlite-store.ts';
export { openSqliteThreadStore, SqliteThreadStore } from './store/sqlite/sqlite-thread.ts';
export {
  FSYNC_FAILED,
  isDiskFull,
  isFsyncFailure,
  isStorageWriteError,
  StorageFatalError,
} from './store/storage-fault.ts';
export type * from './store/store.ts';
export { LINK_AFTER_MS, spanUrl } from './tracing/attempt-span.ts';
export { formatTraceparent, parseTraceparent, type TraceContext, traceContextOf } from './tracing/trace-context.ts';
