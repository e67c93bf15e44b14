// Public surface @hookline/core/config: what reading and checking a configuration needs (defaults, durations,
// policies, money rules, the master key), without loading the engine, its stores or their drivers.

export { isPostgresUrl } from './db-url.ts';
export { deepFreeze } from './deep-freeze.ts';
export { DEFAULTS } from './defaults.ts';
export { NO_TENANT_LIMITS, type TenantLimits } from './domain.ts';
export { formatDuration, InvalidDurationError, parseDuration } from './duration.ts';
export { type EgressOptions, EgressRoutes } from './egress-routes.ts';
export type { LogLevel } from './logger.ts';
export { PolicyConfigError } from './policy/config-error.ts';
export { defineMoneyRules } from './policy/money-rules.ts';
export { PolicyRegistry } from './policy/registry.ts';
export type { MoneyRule, Policy } from './policy/types.ts';
export { parseMasterKey } from './secret-box.ts';
