// Public surface of @hookline/core: the engine, its store interface and backends, policies, signing, HTTP client.
export * from './domain.ts';
export * from './errors.ts';
export * from './clock.ts';
export * from './ids.ts';
export * from './logger.ts';
export * from './duration.ts';
export { DEFAULTS } from './defaults.ts';
export { deepFreeze } from './deep-freeze.ts';
export * from './policy/index.ts';
export * from './signing/index.ts';
export * from './http/index.ts';
export * from './doctor/index.ts';
export * from './secret-box.ts';
export * from './health.ts';
export type * from './store/store.ts';
export { SqlStore } from './store/sql-store.ts';
export { openSqliteStore } from './store/sqlite/sqlite-store.ts';
export { openSqliteThreadStore, SqliteThreadStore } from './store/sqlite/sqlite-thread.ts';
export { openPostgresStore, isPostgresUrl, PostgresStore } from './store/postgres/postgres-store.ts';
export { PostgresDriver, type PostgresOptions } from './store/postgres/postgres-driver.ts';
export { StorageFatalError, FSYNC_FAILED, isFsyncFailure, isStorageWriteError, isDiskFull } from './store/storage-fault.ts';
export { GroupCommit } from './group-commit.ts';
export { Ingest, subscribes, type EventInput } from './ingest.ts';
export { Dispatcher, type DeliverySender } from './dispatch/dispatcher.ts';
export type { DispatchObserver, AttemptEvent, BreakerTransition } from './dispatch/observers.ts';
export { Breaker, type BreakerOptions, type BreakerStatus, type BreakerScopeRef } from './breaker/breaker-gate.ts';
export { scopeKeyOf, scopeOfKey, type BreakerState, type BreakerScope } from './breaker/breaker-rules.ts';
export { Maintenance, type MaintenanceOptions, type MaintenanceResult } from './maintenance/runner.ts';
export { purgeExpired, DEFAULT_RETENTION, type RetentionOptions, type PurgeCounts } from './maintenance/retention.ts';
export { sweepHealth } from './maintenance/health-sweep.ts';
export { OutboxDrainer, outboxRetryDelay, type OutboxHandler, type OutboxDrainerOptions, type DrainResult } from './outbox/outbox-drainer.ts';
export { addFailures, summaryDueAt, takeSummary, emptySummaryState, SUMMARY_WINDOW_MS, SUMMARY_MAX_IDS, type FailedDelivery, type FailureSummary, type FailureSummaryState } from './outbox/failure-summary.ts';
export { healthEntry, breakerEntry, summaryEntry } from './outbox/outbox-entries.ts';
export { openGate, admitWithAgeLimit, type Admission, type AdmissionGate } from './dispatch/admission.ts';
export { Hookline, createHookline, type HooklineOptions } from './hookline.ts';
export type { EndpointEdit, EndpointInput } from './operations/endpoints.ts';
export { parsePayloadFilter, matchesFilter, FILTER_LIMITS, type PayloadFilter, type FilterCondition } from './filters/payload-filter.ts';
export { parseCustomHeaders, CUSTOM_HEADER_LIMITS } from './http/custom-headers.ts';
export type { TenantInput, TenantPatch } from './operations/tenants.ts';
export type { LiveSecret } from './operations/endpoint-secrets.ts';
export type { DoctorContract, DoctorEndpointOptions } from './operations/doctor.ts';
export type { MinuteStats, QueueStats, TenantStats } from './operations/stats.ts';
export {
  TenantOperations, ApiKeyOperations, EndpointOperations, EndpointSecretOperations, EventOperations, DeliveryOperations, ReplayOperations,
  BreakerOperations, NoticeOperations, EventTypeOperations, StatsOperations, DoctorOperations, MaintenanceOperations,
  ConsoleSessionOperations, CONSOLE_SESSION_MAX_MS, PORTAL_LINK_TTL_MS, SimulationOperations, SIMULATION_MAX_RESPONSES, SIMULATION_MAX_RUNNING,
} from './operations/index.ts';
export type { ConsoleGrant, ConsoleSession, SimulationInput, PolicySummary } from './operations/index.ts';
