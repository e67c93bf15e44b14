// The server's configuration, read once: defaults → JSON file → HOOKLINE_* env → flags, validated and frozen. With
// cli/client-config.ts, the only modules that read process.env; everything else is handed the resolved config.
import type { LogLevel, MoneyRule, TenantLimits } from '@hookline/core/config';
// Core's configuration kit, not its index: client commands import this module and should not load the engine.
import {
  DEFAULTS,
  deepFreeze,
  defineMoneyRules,
  formatDuration,
  isPostgresUrl,
  PolicyConfigError,
  PolicyRegistry,
  parseMasterKey,
} from '@hookline/core/config';
import { ConfigError } from './config-error.ts';
import {
  bool,
  type ConfigLayer,
  duration,
  int,
  normaliseKeys,
  oneOf,
  optStr,
  readConfigFile,
  readEnv,
  str,
} from './config-readers.ts';
import { readTracing, type TracingConfig } from './config-tracing.ts';
import { DEFAULT_EGRESS, type EgressConfig, egressConfig } from './egress-config.ts';

export type Role = 'all' | 'api' | 'worker';
/** `auto`: readable lines (pino-pretty) when stdout is a terminal, JSON lines otherwise (pipes, files, collectors). */
export type LogFormat = 'auto' | 'json' | 'pretty';

export interface SmtpConfig {
  host: string;
  port: number;
  from: string;
  secure?: boolean;
  user?: string;
  pass?: string;
}

export interface HooklineConfig {
  port: number;
  /** 127.0.0.1 by default; set 0.0.0.0 to listen on every interface. */
  host: string;
  /** A SQLite file path or a postgres:// URL. */
  db: string;
  role: Role;
  adminToken: string | null;
  masterKey: string | null;
  /** Where a generated master key lives when none is configured. */
  dataDir: string;
  allowHttp: boolean;
  allowPrivateTargets: boolean;
  logLevel: LogLevel;
  /** `auto` (default): readable lines when stdout is a terminal, JSON lines otherwise; `json` or `pretty` forces one. */
  logFormat: LogFormat;
  /** User policy definitions (see PolicyRegistry.fromConfig); validated here. */
  policies: readonly unknown[];
  /** Money rules; null keeps the built-in payment-hub list. */
  moneyRules: readonly MoneyRule[] | null;
  strictEventTypes: boolean;
  /** Limit for single-event and other JSON bodies. */
  bodyLimitBytes: number;
  /** Limit for POST …/events/batch. */
  batchBodyLimitBytes: number;
  replayQuotaPerDay: number;
  /**
   * Every tenant's limits where the admin set none of its own (docs/rules.md#tenant-limits); null: unlimited.
   * eventsPerS and eventsPerDay count new events; maxPayloadBytes is the event envelope's size.
   */
  limits: TenantLimits;
  rotationOverlap: string;
  rotationOverlapMs: number;
  retention: string;
  retentionMs: number;
  /** Slowest a client may be to send a whole request. */
  requestTimeoutMs: number;
  /**
   * After the store fails for good (a failed fsync, a dead store thread) the process answers 503 to everything,
   * readiness and liveness included, for this long, so probes and load balancers see it, then exits non-zero.
   */
  fatalExitDelayMs: number;
  smtp: SmtpConfig | null;
  /** leaseMs: how long a claim is held before another worker may take it (default 90 s; outlives the longest send). */
  dispatcher: { batchSize: number; maxInFlight: number; leaseMs: number };
  /** When set, GET /metrics needs `Authorization: Bearer <token>`; null leaves it open (scraped on a private network). */
  metricsToken: string | null;
  /** How often the store gauges of /metrics are read at most, however many scrapers (e.g. `5s`). */
  metricsRefresh: string;
  metricsRefreshMs: number;
  /**
   * The settings epoch (docs/scaling.md#settings-that-must-match): a process refuses to start beside live processes
   * of the same epoch whose settings that must match differ; raising it lets a rolling deploy change them.
   */
  settingsEpoch: number;
  /** CSP `frame-ancestors` of the console (docs/console.md#frame-ancestors): `'none'` (default) or the provider's origins, space-separated. */
  consoleFrameAncestors: string;
  /** reopenWindow: a degradation this soon after a recovery is the same incident, not a new notice (docs/rules.md#notifications). */
  notifications: { reopenWindow: string; reopenWindowMs: number };
  /** The forward proxy deliveries leave through (docs/deploy.md#egress-proxy); none by default. */
  egress: EgressConfig;
  /** From the standard OTEL_* environment only (docs/observability.md#traces); null: tracing off. */
  tracing: TracingConfig | null;
}

/** The engine's defaults (@hookline/core DEFAULTS) where the engine has one; the server's own beside them. */
export const DEFAULT_CONFIG: Readonly<HooklineConfig> = deepFreeze({
  port: 8080,
  host: '127.0.0.1',
  db: './hookline.db',
  role: 'all',
  adminToken: null,
  masterKey: null,
  dataDir: '.hookline',
  allowHttp: false,
  allowPrivateTargets: false,
  logLevel: 'info',
  logFormat: 'auto',
  policies: [],
  moneyRules: null,
  strictEventTypes: false,
  bodyLimitBytes: 1024 * 1024,
  batchBodyLimitBytes: 10 * 1024 * 1024,
  replayQuotaPerDay: DEFAULTS.replay.quotaPerDay,
  limits: { eventsPerS: null, eventsPerDay: null, maxEndpoints: null, maxPayloadBytes: null },
  rotationOverlap: formatDuration(DEFAULTS.rotationOverlapMs),
  rotationOverlapMs: DEFAULTS.rotationOverlapMs,
  retention: formatDuration(DEFAULTS.retention.deliveriesMs),
  retentionMs: DEFAULTS.retention.deliveriesMs,
  requestTimeoutMs: 30_000,
  fatalExitDelayMs: 2000,
  smtp: null,
  dispatcher: {
    batchSize: DEFAULTS.dispatcher.batchSize,
    maxInFlight: DEFAULTS.dispatcher.maxInFlight,
    leaseMs: DEFAULTS.dispatcher.leaseMs,
  },
  metricsToken: null,
  metricsRefresh: '5s',
  metricsRefreshMs: 5000,
  settingsEpoch: 0,
  consoleFrameAncestors: "'none'",
  notifications: {
    reopenWindow: formatDuration(DEFAULTS.notifications.reopenWindowMs),
    reopenWindowMs: DEFAULTS.notifications.reopenWindowMs,
  },
  egress: DEFAULT_EGRESS,
  tracing: null,
}) as Readonly<HooklineConfig>;

/** Keys a config file or flags may set (derived *Ms fields are computed, never set). */
const KEYS = [
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
type Key = (typeof KEYS)[number];

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

export interface ResolveConfigOptions {
  /** Explicit options, e.g. parsed CLI flags (camelCase or kebab-case keys); unknown keys are ignored. */
  argv?: Record<string, unknown>;
  /** Defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** A JSON config file (`--config hookline.json`); also argv.config or HOOKLINE_CONFIG. */
  file?: string;
}

type Layer = ConfigLayer & Partial<Record<Key, unknown>>;

/** Defaults → JSON file → HOOKLINE_* env → explicit options; throws ConfigError naming the first bad key. */
export function resolveConfig(options: ResolveConfigOptions = {}): HooklineConfig {
  const env = options.env ?? process.env;
  const argv = normaliseKeys(options.argv ?? {});
  const file = options.file ?? (typeof argv.config === 'string' ? argv.config : undefined) ?? env.HOOKLINE_CONFIG;
  const layers: Layer[] = [];
  if (file) layers.push(readConfigFile(file, KEYS));
  // JSON-valued variables: the policy and money-rule lists.
  layers.push(readEnv(env, SERVER_ENV, ['policies', 'moneyRules']));
  const flags: Layer = {};
  for (const k of KEYS) if (argv[k] !== undefined) (flags as Record<string, unknown>)[k] = argv[k];
  // Common flag spellings: --database-url, --database.
  if (argv.databaseUrl !== undefined && flags.db === undefined) flags.db = argv.databaseUrl;
  layers.push(flags);

  const merged: Record<string, unknown> = {
    ...DEFAULT_CONFIG,
    smtp: null,
    dispatcher: { ...DEFAULT_CONFIG.dispatcher },
    limits: { ...DEFAULT_CONFIG.limits },
    notifications: { reopenWindow: DEFAULT_CONFIG.notifications.reopenWindow },
    egress: {},
  };
  for (const layer of layers) {
    for (const [k, v] of Object.entries(layer)) {
      if (v === undefined) continue;
      if (
        (k === 'smtp' || k === 'dispatcher' || k === 'notifications' || k === 'egress' || k === 'limits') &&
        v !== null &&
        typeof v === 'object' &&
        !Array.isArray(v)
      ) {
        merged[k] = { ...((merged[k] as object | null) ?? {}), ...(v as object) };
      } else merged[k] = v;
    }
  }
  merged.tracing = readTracing(env);
  return validate(merged);
}

// ---- validation: every key read once by its value reader (config-readers.ts), then the checks across keys ----

function validate(m: Record<string, unknown>): HooklineConfig {
  const rotationOverlap = str(m.rotationOverlap, 'rotationOverlap');
  const retention = str(m.retention, 'retention');
  const policies = m.policies ?? [];
  if (!Array.isArray(policies)) throw new ConfigError('policies', 'must be an array of policy definitions');
  try {
    PolicyRegistry.fromConfig(policies);
  } catch (err) {
    if (err instanceof PolicyConfigError) throw new ConfigError(err.path, err.message.slice(err.path.length + 2));
    throw err;
  }
  let moneyRules: MoneyRule[] | null = null;
  if (m.moneyRules !== null && m.moneyRules !== undefined) {
    try {
      moneyRules = defineMoneyRules(m.moneyRules);
    } catch (err) {
      if (err instanceof PolicyConfigError) throw new ConfigError(err.path, err.message.slice(err.path.length + 2));
      throw err;
    }
  }
  const masterKey = optStr(m.masterKey, 'masterKey');
  if (masterKey !== null) {
    try {
      parseMasterKey(masterKey);
    } catch (err) {
      throw new ConfigError('masterKey', `${(err as Error).message} (generate one with \`openssl rand -base64 32\`)`);
    }
  }
  const adminToken = optStr(m.adminToken, 'adminToken');
  if (adminToken !== null && adminToken.length < 16)
    throw new ConfigError('adminToken', 'must be at least 16 characters');
  const metricsToken = optStr(m.metricsToken, 'metricsToken');
  if (metricsToken !== null && metricsToken.length < 16)
    throw new ConfigError('metricsToken', 'must be at least 16 characters');
  const metricsRefresh = str(m.metricsRefresh, 'metricsRefresh');
  const metricsRefreshMs = duration(metricsRefresh, 'metricsRefresh');
  if (metricsRefreshMs < 100 || metricsRefreshMs > 3_600_000)
    throw new ConfigError('metricsRefresh', `must be from 100ms to 1h, got ${JSON.stringify(metricsRefresh)}`);
  const consoleFrameAncestors = str(m.consoleFrameAncestors, 'consoleFrameAncestors').trim();
  // Each source is 'none', 'self' or an http(s) origin (a host may start with *.): nothing that could end the CSP directive.
  const ancestorSource = /^(?:'none'|'self'|https?:\/\/(?:\*\.)?[A-Za-z0-9.-]+(?::\d{1,5})?)$/;
  const sources = consoleFrameAncestors.split(/\s+/);
  if (
    !consoleFrameAncestors ||
    !sources.every((x) => ancestorSource.test(x)) ||
    (sources.includes("'none'") && sources.length > 1)
  ) {
    throw new ConfigError(
      'consoleFrameAncestors',
      `must be 'none', 'self' or space-separated http(s) origins, got ${JSON.stringify(consoleFrameAncestors)}`,
    );
  }
  const db = str(m.db, 'db');
  if (db.length === 0) throw new ConfigError('db', 'must be a SQLite file path or a postgres:// URL');
  const role = oneOf(m.role, 'role', ['all', 'api', 'worker'] as const);
  // On SQLite one process owns the file: a worker beside an api process could read commits not yet fsynced and send
  // before the 202 (docs/scaling.md).
  if (role !== 'all' && !isPostgresUrl(db))
    throw new ConfigError(
      'role',
      `${role} needs PostgreSQL; on SQLite one process owns the file: use --role all, or a postgres:// database to split api and worker`,
    );
  const config: HooklineConfig = {
    port: int(m.port, 'port', 0, 65535),
    host: str(m.host, 'host'),
    db,
    role,
    adminToken,
    masterKey,
    dataDir: str(m.dataDir, 'dataDir'),
    allowHttp: bool(m.allowHttp, 'allowHttp'),
    allowPrivateTargets: bool(m.allowPrivateTargets, 'allowPrivateTargets'),
    logLevel: oneOf(m.logLevel, 'logLevel', ['debug', 'info', 'warn', 'error'] as const),
    logFormat: oneOf(m.logFormat, 'logFormat', ['auto', 'json', 'pretty'] as const),
    policies: Object.freeze([...policies]),
    moneyRules: moneyRules ? Object.freeze(moneyRules) : null,
    strictEventTypes: bool(m.strictEventTypes, 'strictEventTypes'),
    bodyLimitBytes: int(m.bodyLimitBytes, 'bodyLimitBytes', 1024, 1024 * 1024 * 1024),
    batchBodyLimitBytes: int(m.batchBodyLimitBytes, 'batchBodyLimitBytes', 1024, 1024 * 1024 * 1024),
    replayQuotaPerDay: int(m.replayQuotaPerDay, 'replayQuotaPerDay', 0, 1_000_000),
    limits: tenantLimits(m.limits),
    rotationOverlap,
    rotationOverlapMs: duration(rotationOverlap, 'rotationOverlap'),
    retention,
    retentionMs: duration(retention, 'retention'),
    requestTimeoutMs: int(m.requestTimeoutMs, 'requestTimeoutMs', 1000, 3_600_000),
    fatalExitDelayMs: int(m.fatalExitDelayMs, 'fatalExitDelayMs', 0, 600_000),
    smtp: smtp(m.smtp),
    dispatcher: dispatcher(m.dispatcher),
    metricsToken,
    metricsRefresh,
    metricsRefreshMs,
    settingsEpoch: int(m.settingsEpoch, 'settingsEpoch', 0, 1_000_000_000),
    consoleFrameAncestors,
    notifications: notifications(m.notifications),
    egress: egressConfig(m.egress),
    tracing: (m.tracing as TracingConfig | null | undefined) ?? null,
  };
  return deepFreeze(config);
}

function smtp(v: unknown): SmtpConfig | null {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'object' || Array.isArray(v))
    throw new ConfigError('smtp', 'must be an object {host, port, from, secure?, user?, pass?}');
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (!['host', 'port', 'from', 'secure', 'user', 'pass'].includes(k))
      throw new ConfigError(`smtp.${k}`, 'unknown key; expected host, port, from, secure, user, pass');
  if (o.host === undefined) throw new ConfigError('smtp.host', 'is required when smtp is configured');
  const out: SmtpConfig = {
    host: str(o.host, 'smtp.host'),
    port: int(o.port ?? 587, 'smtp.port', 1, 65535),
    from: str(o.from ?? 'hookline@localhost', 'smtp.from'),
  };
  if (o.secure !== undefined) out.secure = bool(o.secure, 'smtp.secure');
  if (o.user !== undefined) out.user = str(o.user, 'smtp.user');
  if (o.pass !== undefined) out.pass = str(o.pass, 'smtp.pass');
  return out;
}
function dispatcher(v: unknown): HooklineConfig['dispatcher'] {
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new ConfigError('dispatcher', 'must be an object {batchSize, maxInFlight, leaseMs}');
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (!['batchSize', 'maxInFlight', 'leaseMs'].includes(k))
      throw new ConfigError(`dispatcher.${k}`, 'unknown key; expected batchSize, maxInFlight, leaseMs');
  return {
    batchSize: int(o.batchSize, 'dispatcher.batchSize', 1, 10_000),
    maxInFlight: int(o.maxInFlight, 'dispatcher.maxInFlight', 1, 100_000),
    // A lease shorter than a send lets a second worker repeat it; 1 s suits only endpoints with sub-second timeouts.
    leaseMs: int(o.leaseMs, 'dispatcher.leaseMs', 1_000, 3_600_000),
  };
}
function notifications(v: unknown): HooklineConfig['notifications'] {
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new ConfigError('notifications', 'must be an object {reopenWindow}');
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (k !== 'reopenWindow') throw new ConfigError(`notifications.${k}`, 'unknown key; expected reopenWindow');
  const reopenWindow = str(o.reopenWindow, 'notifications.reopenWindow');
  const reopenWindowMs = duration(reopenWindow, 'notifications.reopenWindow');
  // 0 tells every flip; a day at most: a recovery is told only once the window has passed.
  if (reopenWindowMs > 86_400_000)
    throw new ConfigError('notifications.reopenWindow', `must be at most 24h, got ${JSON.stringify(reopenWindow)}`);
  return { reopenWindow, reopenWindowMs };
}
function tenantLimits(v: unknown): TenantLimits {
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new ConfigError('limits', 'must be an object {eventsPerS, eventsPerDay, maxEndpoints, maxPayloadBytes}');
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (!(k in DEFAULT_CONFIG.limits))
      throw new ConfigError(
        `limits.${k}`,
        'unknown key; expected eventsPerS, eventsPerDay, maxEndpoints, maxPayloadBytes',
      );
  // null (or an empty variable, never read) leaves a limit off.
  const opt = (k: string, read: (x: unknown, key: string) => number) =>
    o[k] === null || o[k] === undefined ? null : read(o[k], `limits.${k}`);
  return {
    eventsPerS: opt('eventsPerS', (x, key) => {
      const n = typeof x === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(x) ? Number(x) : x;
      if (typeof n !== 'number' || !(n > 0) || n > 1_000_000)
        throw new ConfigError(key, `must be a number above 0 and at most 1000000, got ${JSON.stringify(x)}`);
      return n;
    }),
    eventsPerDay: opt('eventsPerDay', (x, key) => int(x, key, 0, 1_000_000_000_000)),
    maxEndpoints: opt('maxEndpoints', (x, key) => int(x, key, 0, 1_000_000)),
    maxPayloadBytes: opt('maxPayloadBytes', (x, key) => int(x, key, 1, 1_000_000_000)),
  };
}
