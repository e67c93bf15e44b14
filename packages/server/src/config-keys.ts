// The config's names outside the code: the keys a config file or flags may set, and the HOOKLINE_* variable that sets
// each (docs/deploy.md lists them; test/deploy.docs.test.ts holds the two together).
import type { TenantLimits } from '@hookline/core/config';
import type { SmtpConfig } from './config-sections.ts';

/** Keys a config file or flags may set (derived *Ms fields are computed, never set). */
export const KEYS = [
  'port',
  'host',
  'db',
  'role',
  'adminToken',
  'masterKey',
  'dataDir',
  'allowHttp',
  'allowPrivateTargets',
  'logLevel',
  'logFormat',
  'policies',
  'moneyRules',
  'strictEventTypes',
  'bodyLimitBytes',
  'batchBodyLimitBytes',
  'replayQuotaPerDay',
  'limits',
  'rotationOverlap',
  'retention',
  'requestTimeoutMs',
  'fatalExitDelayMs',
  'smtp',
  'dispatcher',
  'metricsToken',
  'metricsRefresh',
  'settingsEpoch',
  'consoleFrameAncestors',
  'notifications',
  'egress',
] as const;
export type Key = (typeof KEYS)[number];

/** The server's HOOKLINE_* variables and the key each sets; JSON-valued ones are parsed (docs/deploy.md lists them). */
export const SERVER_ENV: Readonly<
  Record<
    string,
    | Key
    | `smtp.${keyof SmtpConfig}`
    | `dispatcher.${'batchSize' | 'maxInFlight' | 'leaseMs'}`
    | 'notifications.reopenWindow'
    | 'egress.proxy'
    | 'egress.noProxy'
    | `limits.${keyof TenantLimits}`
  >
> = {
  HOOKLINE_PORT: 'port',
  HOOKLINE_HOST: 'host',
  HOOKLINE_DB: 'db',
  HOOKLINE_DATABASE_URL: 'db',
  HOOKLINE_ROLE: 'role',
  HOOKLINE_ADMIN_TOKEN: 'adminToken',
  HOOKLINE_MASTER_KEY: 'masterKey',
  HOOKLINE_DATA_DIR: 'dataDir',
  HOOKLINE_ALLOW_HTTP: 'allowHttp',
  HOOKLINE_ALLOW_PRIVATE_TARGETS: 'allowPrivateTargets',
  HOOKLINE_LOG_LEVEL: 'logLevel',
  HOOKLINE_LOG_FORMAT: 'logFormat',
  HOOKLINE_POLICIES: 'policies',
  HOOKLINE_MONEY_RULES: 'moneyRules',
  HOOKLINE_STRICT_EVENT_TYPES: 'strictEventTypes',
  HOOKLINE_BODY_LIMIT_BYTES: 'bodyLimitBytes',
  HOOKLINE_BATCH_BODY_LIMIT_BYTES: 'batchBodyLimitBytes',
  HOOKLINE_REPLAY_QUOTA_PER_DAY: 'replayQuotaPerDay',
  HOOKLINE_TENANT_EVENTS_PER_S: 'limits.eventsPerS',
  HOOKLINE_TENANT_EVENTS_PER_DAY: 'limits.eventsPerDay',
  HOOKLINE_TENANT_MAX_ENDPOINTS: 'limits.maxEndpoints',
  HOOKLINE_TENANT_MAX_PAYLOAD_BYTES: 'limits.maxPayloadBytes',
  HOOKLINE_ROTATION_OVERLAP: 'rotationOverlap',
  HOOKLINE_RETENTION: 'retention',
  HOOKLINE_REQUEST_TIMEOUT_MS: 'requestTimeoutMs',
  HOOKLINE_FATAL_EXIT_DELAY_MS: 'fatalExitDelayMs',
  HOOKLINE_SMTP_HOST: 'smtp.host',
  HOOKLINE_SMTP_PORT: 'smtp.port',
  HOOKLINE_SMTP_FROM: 'smtp.from',
  HOOKLINE_SMTP_SECURE: 'smtp.secure',
  HOOKLINE_SMTP_USER: 'smtp.user',
  HOOKLINE_SMTP_PASS: 'smtp.pass',
  HOOKLINE_DISPATCHER_BATCH_SIZE: 'dispatcher.batchSize',
  HOOKLINE_DISPATCHER_MAX_IN_FLIGHT: 'dispatcher.maxInFlight',
  HOOKLINE_METRICS_TOKEN: 'metricsToken',
  HOOKLINE_METRICS_REFRESH: 'metricsRefresh',
  HOOKLINE_DISPATCHER_LEASE_MS: 'dispatcher.leaseMs',
  HOOKLINE_SETTINGS_EPOCH: 'settingsEpoch',
  HOOKLINE_CONSOLE_FRAME_ANCESTORS: 'consoleFrameAncestors',
  HOOKLINE_NOTIFICATIONS_REOPEN_WINDOW: 'notifications.reopenWindow',
  HOOKLINE_EGRESS_PROXY: 'egress.proxy',
  HOOKLINE_EGRESS_NO_PROXY: 'egress.noProxy',
};
Object.freeze(SERVER_ENV);
