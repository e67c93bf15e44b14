// Opens everything a Hookline process runs on: store (migrated), master key, engine, admin token, metrics, observers.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import {
  type Clock,
  createHookline,
  createSecretBox,
  type DeliverySender,
  type DispatchObserver,
  generateMasterKey,
  type Hookline,
  isPostgresUrl,
  type Logger,
  type LookupAll,
  openSqliteThreadStore,
  PolicyRegistry,
  type Store,
  systemClock,
} from '@hookline/core';
import type { Tracer } from '@opentelemetry/api';
import type { HooklineConfig } from './config.ts';
import { ConfigError } from './config-error.ts';
import { writeFileOnce } from './durable-file.ts';
import { EventTypeRegistry } from './event-types/event-type-registry.ts';
import { AuthLookups } from './http/auth.ts';
import { KeyUsage } from './http/key-usage.ts';
import { serverLogger } from './log-output.ts';
import { ServerMetrics } from './metrics/server-metrics.ts';
import { createNotifier, smtpMailer } from './notify/index.ts';
import { COMPARED_SETTINGS, SettingsAgreement } from './settings-agreement.ts';
import { openWithOwnerLock } from './sqlite-owner-lock.ts';
import type { Tracing } from './tracing/tracing-sdk.ts';

export interface RuntimeOverrides {
  clock?: Clock;
  sender?: DeliverySender;
  /** DNS for the engine's own sender (tests resolve names without DNS; the SSRF guard still filters the answers). */
  lookup?: LookupAll;
  logger?: Logger;
}

export interface Runtime {
  readonly config: HooklineConfig;
  readonly store: Store;
  readonly engine: Hookline;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly eventTypes: EventTypeRegistry;
  readonly metrics: ServerMetrics;
  /** The process's tracer (docs/observability.md#traces); null: tracing off, no span work anywhere. */
  readonly tracer: Tracer | null;
  /** Observers attached so far; add with addObserver (the dispatcher keeps its own copy). */
  readonly observers: DispatchObserver[];
  addObserver(observer: DispatchObserver): void;
  /** sha256 of the admin token; requests are compared against it in constant time. */
  readonly adminTokenHash: Buffer;
  /** API keys and tenants as authentication reads them (a narrow read-only port on the store), remembered briefly; forgotten on every revocation through the engine. */
  readonly authLookups: AuthLookups;
  /** This process's published settings and what differs from the other processes on the database (docs/scaling.md#settings-that-must-match). */
  readonly settings: SettingsAgreement;
  /** Set only on the start that generated the admin token: print it once, it is not stored. */
  readonly adminTokenPlaintext?: string;
  /** Set once the store has failed for good (a failed fsync, a dead store thread): answer 503 and exit. */
  readonly fatal: Error | null;
  /** `listener` is called once when the store fails for good (after the loud log line). */
  onFatal(listener: (err: Error) => void): void;
  /** Stops the dispatcher (letting in-flight attempts commit) and closes the store. */
  close(): Promise<void>;
}

export const ADMIN_TOKEN_SETTING = 'admin_token_sha256';
const MASTER_KEY_CHECK_SETTING = 'master_key_check';
const MASTER_KEY_FILE = 'master.key';

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

async function openStore(db: string): Promise<Store> {
  if (isPostgresUrl(db)) {
    const core = (await import('@hookline/core')) as unknown as Record<string, unknown>;
    const open = core.openPostgresStore;
    if (typeof open !== 'function') throw new ConfigError('db', 'postgres store not available');
    return (await (open as (url: string) => Promise<Store>)(db)) as Store;
  }
  // One process owns a SQLite file (docs/scaling.md): taken before the file is opened, given up after it is closed.
  // The connection gets its own thread: statements, commits and checkpoints never stall the API or the sends.
  return openWithOwnerLock(db, openSqliteThreadStore);
}

/** The configured key, or the one in dataDir/master.key, generated once (mode 0600) with a warning. */
function resolveMasterKey(config: HooklineConfig, logger: Logger): string {
  if (config.masterKey) return config.masterKey;
  const dir = resolve(config.dataDir);
  const file = join(dir, MASTER_KEY_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = generateMasterKey();
  if (!writeFileOnce(dir, file, `${key}\n`)) return readFileSync(file, 'utf8').trim(); // another process won the race
  logger.log(
    'warn',
    'generated a master key; back it up — without it endpoint secrets cannot be decrypted. Set HOOKLINE_MASTER_KEY in production.',
    { file },
  );
  return key;
}

/** A sealed known value in settings tells a wrong master key at start, not at the first delivery. */
async function checkMasterKey(store: Store, masterKey: string): Promise<void> {
  const box = createSecretBox(masterKey);
  const sealed = await store.catalog.getSetting(MASTER_KEY_CHECK_SETTING);
  if (sealed === null) {
    await store.catalog.setSetting(MASTER_KEY_CHECK_SETTING, box.seal('hookline', MASTER_KEY_CHECK_SETTING));
    return;
  }
  try {
    box.open(sealed, MASTER_KEY_CHECK_SETTING);
  } catch {
    throw new ConfigError('masterKey', 'does not match the key this database was created with');
  }
}

/** The configured token's hash, or the stored hash, or a new token whose hash is stored (plaintext returned once). */
async function bootstrapAdminToken(
  store: Store,
  config: HooklineConfig,
  logger: Logger,
): Promise<{ hash: Buffer; plaintext?: string }> {
  if (config.adminToken) {
    // Stored too, so a token set to replace a lost one (docs/deploy.md#admin-token) stays the only one once unset.
    const hash = sha256(config.adminToken);
    const stored = await store.catalog.getSetting(ADMIN_TOKEN_SETTING);
    if (stored !== hash.toString('hex')) {
      await store.catalog.setSetting(ADMIN_TOKEN_SETTING, hash.toString('hex'));
      // Said once, when it happens: the operator recovering a lost token sees that the old one no longer works.
      if (stored !== null)
        logger.log('warn', 'the configured admin token replaced the stored one; the old token no longer works');
    }
    return { hash };
  }
  const stored = await store.catalog.getSetting(ADMIN_TOKEN_SETTING);
  if (stored) return { hash: Buffer.from(stored, 'hex') };
  const plaintext = `hl_admin_${randomBytes(32).toString('base64url')}`;
  const hash = sha256(plaintext);
  await store.catalog.setSetting(ADMIN_TOKEN_SETTING, hash.toString('hex'));
  // Two processes starting at once: the last write wins, so only the winner prints its token.
  const now = await store.catalog.getSetting(ADMIN_TOKEN_SETTING);
  return now === hash.toString('hex') ? { hash, plaintext } : { hash: Buffer.from(now ?? '', 'hex') };
}

export async function openRuntime(config: HooklineConfig, overrides: RuntimeOverrides = {}): Promise<Runtime> {
  const logger = overrides.logger ?? serverLogger(config.logLevel, config.logFormat);
  const clock = overrides.clock ?? systemClock;
  const masterKey = resolveMasterKey(config, logger);
  const store = await openStore(config.db);
  // Spans of this process go out in batches; closed (and flushed) after the engine has stopped.
  let tracing: Tracing | null = null;
  try {
    if (config.tracing) {
      // The SDK is loaded only when tracing is configured: a process without it never imports it.
      const { startTracing } = await import('./tracing/tracing-sdk.ts');
      tracing = startTracing(config.tracing, { role: config.role, instanceId: `${hostname()}:${process.pid}` });
      logger.log('info', 'tracing on: spans go to the OTLP endpoint in batches (docs/observability.md#traces)', {
        url: config.tracing.url.replace(/\/\/[^@/]*@/, '//***@'),
        protocol: config.tracing.protocol,
        service: config.tracing.serviceName,
        sampler: config.tracing.sampler,
      });
    }
    await store.migrate();
    // PostgreSQL's own upkeep (autovacuum off): said at start, never refused (docs/scaling.md#history).
    if ('upkeepWarnings' in store && typeof store.upkeepWarnings === 'function')
      for (const w of (await store.upkeepWarnings()) as string[]) logger.log('warn', w);
    await checkMasterKey(store, masterKey);
    const admin = await bootstrapAdminToken(store, config, logger);
    const metrics = new ServerMetrics(store, { refreshMs: config.metricsRefreshMs });
    const observers: DispatchObserver[] = [metrics.observer];
    const engine = createHookline({
      store,
      masterKey,
      clock,
      policies: PolicyRegistry.fromConfig(config.policies),
      ...(config.moneyRules ? { moneyRules: config.moneyRules } : {}),
      ...(overrides.sender ? { sender: overrides.sender } : {}),
      ...(overrides.lookup ? { lookup: overrides.lookup } : {}),
      logger,
      allowHttp: config.allowHttp,
      allowPrivateTargets: config.allowPrivateTargets,
      egress: config.egress,
      observers,
      dispatcher: {
        batchSize: config.dispatcher.batchSize,
        maxInFlight: config.dispatcher.maxInFlight,
        leaseMs: config.dispatcher.leaseMs,
      },
      rotationOverlapMs: config.rotationOverlapMs,
      replayQuotaPerDay: config.replayQuotaPerDay,
      tenantLimits: config.limits,
      // The registry is built over the engine's event-type operations below; it is in place before any event is accepted.
      isMoneyOverride: (type, data) => eventTypes.moneyOverride(type, data),
      maintenance: { retention: { deliveriesMs: config.retentionMs } },
      notifications: { reopenWindowMs: config.notifications.reopenWindowMs },
      ...(tracing ? { tracer: tracing.tracer } : {}),
    });
    const eventTypes = new EventTypeRegistry(engine.eventTypes);
    // Before anything runs: a process whose settings contradict a live one's refuses here, naming the setting.
    metrics.showSettingsMismatches(COMPARED_SETTINGS, []);
    const settings = await SettingsAgreement.join({
      processes: engine.processes,
      config,
      masterKey,
      logger,
      soleOwner: !isPostgresUrl(config.db),
      onChange: (found) =>
        metrics.showSettingsMismatches(
          COMPARED_SETTINGS,
          found.map((m) => m.setting),
        ),
    });
    // API keys and tenants as authentication reads them; a revocation or tenant deletion in this process forgets them at once.
    const authLookups = new AuthLookups(store.catalog);
    const keyUsage = new KeyUsage((id) => engine.apiKeys.touch(id), clock, logger);
    authLookups.keyUsed = (id) => keyUsage.used(id);
    engine.onCredentialsRevoked(() => authLookups.forget());
    // Sends the engine's notification outbox: notices, operational webhooks and owner mail (docs/rules.md#notifications).
    const smtp = config.smtp;
    const notifier = createNotifier({
      engine,
      logger,
      mailer: smtp
        ? smtpMailer({
            host: smtp.host,
            port: smtp.port,
            from: smtp.from,
            secure: smtp.secure,
            ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.pass ?? '' } } : {}),
          })
        : null,
    });
    let closed = false;
    let fatal: Error | null = null;
    const fatalListeners: Array<(err: Error) => void> = [];
    store.onFatal?.((err) => {
      if (fatal) return;
      fatal = err;
      // As PostgreSQL after a failed fsync: nothing more is acknowledged; the supervisor restarts the process and
      // recovery replays the WAL. Loud, because an operator must look at the disk.
      logger.log(
        'error',
        'FATAL: the store failed for good; answering 503 to everything and exiting for the supervisor to restart',
        {
          error: err.message,
          db: config.db.replace(/\/\/[^@]*@/, '//***@'),
        },
      );
      engine.stop().catch(() => undefined);
      for (const l of fatalListeners.splice(0)) l(err);
    });
    return {
      config,
      store,
      engine,
      clock,
      logger,
      eventTypes,
      metrics,
      tracer: tracing?.tracer ?? null,
      observers,
      addObserver: (o) => {
        observers.push(o);
        engine.addObserver(o);
      },
      get fatal() {
        return fatal;
      },
      onFatal(listener) {
        if (fatal) listener(fatal);
        else fatalListeners.push(listener);
      },
      adminTokenHash: admin.hash,
      authLookups,
      settings,
      ...(admin.plaintext ? { adminTokenPlaintext: admin.plaintext } : {}),
      async close() {
        if (closed) return;
        closed = true;
        await engine.stop();
        await notifier.close();
        await settings.close();
        await store.close();
        await tracing?.close();
        // The lines a buffered destination still holds (the last attempts, "closed"): written before close resolves.
        await logger.flush?.();
      },
    };
  } catch (err) {
    await tracing?.close();
    await store.close().catch(() => {});
    await logger.flush?.();
    throw err;
  }
}
