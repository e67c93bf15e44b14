// Public surface of @hookline/server: config, runtime, the Fastify app and the server the CLI starts.
export { resolveConfig, ConfigError, DEFAULT_CONFIG, type HooklineConfig, type ResolveConfigOptions, type Role, type SmtpConfig } from './config.ts';
export { openRuntime, sha256, ADMIN_TOKEN_SETTING, type Runtime, type RuntimeOverrides } from './runtime.ts';
export { buildApp } from './app.ts';
export { startServer, type RunningServer } from './server.ts';
export { generateApiKey, hashApiKey, apiKeyEnvironment, API_KEY_PREFIXES, type Principal } from './http/auth.ts';
export { EventTypeRegistry, type EventTypeDefinition } from './event-types/event-type-registry.ts';
export { ServerMetrics } from './metrics/server-metrics.ts';
export { buildOpenApi } from './openapi/openapi-document.ts';
