// Public surface of @hookline/server: config, runtime, the Fastify app and the server the CLI starts.

export { buildApp } from './app.ts';
export {
  DEFAULT_CONFIG,
  type HooklineConfig,
  type ResolveConfigOptions,
  type Role,
  resolveConfig,
} from './config.ts';
export { ConfigError } from './config-error.ts';
export type { SmtpConfig } from './config-sections.ts';
export { type EventTypeDefinition, EventTypeRegistry } from './event-types/event-type-registry.ts';
export { API_KEY_PREFIXES, apiKeyEnvironment, generateApiKey, hashApiKey, type Principal } from './http/auth.ts';
export { ServerMetrics } from './metrics/server-metrics.ts';
export { buildOpenApi } from './openapi/openapi-document.ts';
export { ADMIN_TOKEN_SETTING, openRuntime, type Runtime, type RuntimeOverrides, sha256 } from './runtime.ts';
export { type RunningServer, startServer } from './server.ts';
