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
import { KEYS, type Key, SERVER_ENV } from './config-keys.ts';
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
import {
  type DispatcherConfig,
  dispatcher,
  type NotificationsConfig,
  notifications,
  type SmtpConfig,
  smtp,
  tenantLimits,
} from './config-sections.ts';
import { readTracing, type TracingConfig } from './config-tracing.ts';
import { DEFAULT_EGRESS, type EgressConfig, egressConfig } from './egress-config.ts';

export type Role = 'all' | 'api' | 'worker';
/** `auto`: readable lines (pino-pretty) when stdout is a terminal, JSON lines otherwise (pipes, files, collectors). */
export type LogFormat = 'auto' | 'json' | 'pretty';

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
  dispatcher: DispatcherConfig;
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
  notifications: NotificationsConfig;
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
