// The engine's operations, one class per resource; the engine exposes one instance of each (engine.tenants, …).

export { ApiKeyOperations, LAST_USED_GRANULARITY_MS } from './api-keys.ts';
export { AuditOperations, type AuditWhat } from './audit.ts';
export { BreakerOperations } from './breakers.ts';
export {
  CONSOLE_SESSION_MAX_MS,
  type ConsoleGrant,
  type ConsoleSession,
  ConsoleSessionOperations,
  PORTAL_LINK_TTL_MS,
  portalLinkId,
} from './console-sessions.ts';
export { DeliveryOperations } from './deliveries.ts';
export { DoctorOperations } from './doctor.ts';
export { EndpointSecretOperations } from './endpoint-secrets.ts';
export { EndpointOperations } from './endpoints.ts';
export {
  EVENT_SEARCH_LIMITS,
  type EventSearchHit,
  type EventSearchQuery,
} from './event-search.ts';
export { EventTypeOperations } from './event-types.ts';
export { EventOperations } from './events.ts';
export { IDEMPOTENCY_TTL_MS, IdempotencyOperations } from './idempotency.ts';
export { MaintenanceOperations } from './maintenance.ts';
export { MessageOperations } from './messages.ts';
export { NoticeOperations } from './notices.ts';
export { ProcessOperations } from './processes.ts';
export { ReplayOperations } from './replays.ts';
export {
  type PolicySummary,
  SIMULATION_MAX_RESPONSES,
  SIMULATION_MAX_RUNNING,
  type SimulationInput,
  SimulationOperations,
} from './simulations.ts';
export { StatsOperations } from './stats.ts';
export { TenantOperations } from './tenants.ts';
