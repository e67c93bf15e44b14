// The engine's operations, one class per resource; the engine exposes one instance of each (engine.tenants, …).
export { TenantOperations } from './tenants.ts';
export { ApiKeyOperations } from './api-keys.ts';
export { ConsoleSessionOperations, CONSOLE_SESSION_MAX_MS, PORTAL_LINK_TTL_MS, type ConsoleGrant, type ConsoleSession } from './console-sessions.ts';
export { EndpointOperations } from './endpoints.ts';
export { EndpointSecretOperations } from './endpoint-secrets.ts';
export { EventOperations } from './events.ts';
export { DeliveryOperations } from './deliveries.ts';
export { ReplayOperations } from './replays.ts';
export { BreakerOperations } from './breakers.ts';
export { NoticeOperations } from './notices.ts';
export { EventTypeOperations } from './event-types.ts';
export { StatsOperations } from './stats.ts';
export { DoctorOperations } from './doctor.ts';
export { MaintenanceOperations } from './maintenance.ts';
export { SimulationOperations, SIMULATION_MAX_RESPONSES, SIMULATION_MAX_RUNNING, type SimulationInput, type PolicySummary } from './simulations.ts';
