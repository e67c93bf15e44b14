// Settings every process on one database must agree on (docs/scaling.md#settings-that-must-match): this process's
// fingerprint, published at start; the comparison with the other live processes; refusal at start, warnings after.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Logger, ProcessOperations, ProcessRecord } from '@hookline/core';
import { DEFAULTS } from '@hookline/core/config';
import type { HooklineConfig } from './config.ts';
import { ConfigError } from './config-error.ts';

/** `refuse`: a difference fails work one process accepted (refused at start); `warn`: it only answers differently. */
type Severity = 'refuse' | 'warn';

interface SettingRule {
  readonly severity: Severity;
  /** The roles whose work reads the setting; two processes are compared on it only when both read it. */
  readonly usedBy: readonly ('api' | 'worker')[];
  /** The value safe to show and compare: the value itself, a digest, or a key-check value. */
  readonly shown: (config: HooklineConfig, masterKey: string) => string;
}

const BOTH = ['api', 'worker'] as const;
const API = ['api'] as const;

/**
 * Why each is refused or only warned (docs/scaling.md#settings-that-must-match says the same):
 * - masterKey: the worker could not open the secrets the API sealed: every delivery fails.
 * - allowHttp, allowPrivateTargets: the API accepts an endpoint URL the worker's sender then refuses: every delivery fails.
 * - policies: the API accepts an endpoint's policy by its own list, the worker schedules retries and ends deliveries by
 *   its own: a policy it lacks fails the delivery.
 * - moneyRules: read when an event is accepted (the money flag is stored with it): two API processes would classify
 *   the same payment event differently, silently, by which one the load balancer picked. A worker never reads them.
 * - strictEventTypes, bodyLimitBytes, batchBodyLimitBytes, replayQuotaPerDay, limits, rotationOverlap: read only when a
 *   request is answered; two API processes that differ answer the same request differently depending on which one the
 *   load balancer picked, but nothing accepted fails later. A worker never reads them.
 * - retention: read only by workers' maintenance; the shortest purges first, which is visible but loses nothing still
 *   owed a delivery (only terminal deliveries are purged).
 * - egress: read only by workers' senders; a worker without the proxy an endpoint names fails its attempts as
 *   proxy_refused, and deliveries leave from different addresses depending on the worker. Compared without the
 *   proxies' credentials.
 */
export const SETTING_RULES: Readonly<Record<string, SettingRule>> = Object.freeze({
  masterKey: { severity: 'refuse', usedBy: BOTH, shown: (_c, key) => keyCheck(key) },
  allowHttp: { severity: 'refuse', usedBy: BOTH, shown: (c) => String(c.allowHttp) },
  allowPrivateTargets: { severity: 'refuse', usedBy: BOTH, shown: (c) => String(c.allowPrivateTargets) },
  policies: { severity: 'refuse', usedBy: BOTH, shown: (c) => digest(c.policies) },
  moneyRules: {
    severity: 'refuse',
    usedBy: API,
    shown: (c) => (c.moneyRules === null ? 'built-in' : digest(c.moneyRules)),
  },
  strictEventTypes: { severity: 'warn', usedBy: API, shown: (c) => String(c.strictEventTypes) },
  bodyLimitBytes: { severity: 'warn', usedBy: API, shown: (c) => String(c.bodyLimitBytes) },
  batchBodyLimitBytes: { severity: 'warn', usedBy: API, shown: (c) => String(c.batchBodyLimitBytes) },
  replayQuotaPerDay: { severity: 'warn', usedBy: API, shown: (c) => String(c.replayQuotaPerDay) },
  limits: { severity: 'warn', usedBy: API, shown: (c) => digest(c.limits) },
  rotationOverlap: { severity: 'warn', usedBy: API, shown: (c) => `${c.rotationOverlapMs}ms` },
  retention: { severity: 'warn', usedBy: ['worker'], shown: (c) => `${c.retentionMs}ms` },
  egress: { severity: 'warn', usedBy: ['worker'], shown: (c) => digest(egressShown(c.egress)) },
});

/** The egress settings without credentials (a proxy URL's user:pass never leaves the process). */
function egressShown(e: HooklineConfig['egress']): unknown {
  const bare = (url: string | null) => (url === null ? null : url.replace(/\/\/[^@/]*@/, '//'));
  return {
    proxy: bare(e.proxy),
    noProxy: e.noProxy,
    proxies: Object.fromEntries(Object.entries(e.proxies).map(([k, v]) => [k, bare(v)])),
  };
}

/** The names /metrics reports on (`hookline_settings_mismatch{setting}`): every rule, and the epoch. */
export const COMPARED_SETTINGS: readonly string[] = Object.freeze([...Object.keys(SETTING_RULES), 'settingsEpoch']);

/** A key-check value: an HMAC of a constant under the key. It tells keys apart and says nothing about the key. */
export function keyCheck(masterKey: string): string {
  return `kcv:${createHmac('sha256', masterKey.trim()).update('hookline settings key check').digest('hex').slice(0, 16)}`;
}

/** A digest of a JSON value with its object keys sorted, so the same list written in another key order agrees. */
function digest(value: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(canonical(value)))
    .digest('hex')
    .slice(0, 16)}`;
}

/** The values this process publishes: setting name → value safe to show. */
export function settingsFingerprint(config: HooklineConfig, masterKey: string): Record<string, string> {
  return Object.fromEntries(Object.entries(SETTING_RULES).map(([name, rule]) => [name, rule.shown(config, masterKey)]));
}

export interface SettingsMismatch {
  setting: string;
  here: string;
  there: string;
  /** The other process. */
  processId: string;
  role: string;
  /** True when a process starting with this difference is refused. */
  blocking: boolean;
}

const uses = (role: string, rule: SettingRule) => role === 'all' || rule.usedBy.includes(role as 'api' | 'worker');

/**
 * Where `me` differs from the other live processes. Blocking: a `refuse` setting that differs from a process of the
 * same epoch, or a process of a newer epoch at all. Against an older epoch (a rolling change under way) every
 * difference only warns. A setting a process did not publish (an older release) is not compared.
 */
export function compareSettings(me: ProcessRecord, processes: readonly ProcessRecord[]): SettingsMismatch[] {
  const out: SettingsMismatch[] = [];
  for (const other of processes) {
    if (other.processId === me.processId) continue;
    const of = { processId: other.processId, role: other.role };
    if (other.epoch > me.epoch)
      out.push({ setting: 'settingsEpoch', here: String(me.epoch), there: String(other.epoch), ...of, blocking: true });
    for (const [name, rule] of Object.entries(SETTING_RULES)) {
      const here = me.settings[name];
      const there = other.settings[name];
      if (here === undefined || there === undefined || here === there) continue;
      if (!uses(me.role, rule) || !uses(other.role, rule)) continue;
      out.push({ setting: name, here, there, ...of, blocking: rule.severity === 'refuse' && other.epoch === me.epoch });
    }
  }
  return out;
}

/** The one-line refusal for a blocking mismatch, naming the setting. */
export function refusal(m: SettingsMismatch): ConfigError {
  const where = `docs/scaling.md#settings-that-must-match`;
  if (m.setting === 'settingsEpoch')
    return new ConfigError(
      'settingsEpoch',
      `the live ${m.role} process ${m.processId} on this database runs settings epoch ${m.there}, this one ${m.here}; a process of an older epoch does not start beside a newer one (${where})`,
    );
  return new ConfigError(
    m.setting,
    `differs from the live ${m.role} process ${m.processId} on this database (here ${m.here}, there ${m.there}); start every process with the same ${m.setting}, stop the others first, or raise settingsEpoch (--settings-epoch) for a rolling change (${where})`,
  );
}

export interface SettingsAgreementOptions {
  processes: ProcessOperations;
  config: HooklineConfig;
  masterKey: string;
  logger: Logger;
  /** One process owns a SQLite file: any other row is a killed predecessor's, forgotten at start. */
  soleOwner: boolean;
  /** Called with every new list of differences (the /metrics gauge). */
  onChange?: (mismatches: readonly SettingsMismatch[]) => void;
}

/** Reads of the other processes' rows are shared by probes this close together. */
const REFRESH_REUSE_MS = 1000;

/** This process's published settings row, its heartbeat, and what differs from the other live processes now. */
export class SettingsAgreement {
  readonly #o: SettingsAgreementOptions;
  readonly #record: ProcessRecord;
  #mismatches: readonly SettingsMismatch[] = [];
  #readAt = -Infinity;
  #reading: Promise<readonly SettingsMismatch[]> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  private constructor(options: SettingsAgreementOptions, record: ProcessRecord) {
    this.#o = options;
    this.#record = record;
  }

  /**
   * Publishes this process's settings and compares them with every live process: throws the ConfigError naming the
   * first blocking difference (after taking the row back), else starts the heartbeat and warns about the others.
   */
  static async join(options: SettingsAgreementOptions): Promise<SettingsAgreement> {
    const { config, processes } = options;
    const record = await processes.publish(
      {
        processId: `prc_${randomBytes(9).toString('base64url')}`,
        role: config.role,
        epoch: config.settingsEpoch,
        settings: settingsFingerprint(config, options.masterKey),
      },
      { soleOwner: options.soleOwner },
    );
    const agreement = new SettingsAgreement(options, record);
    let blocking: SettingsMismatch | undefined;
    try {
      // Published before reading: of two processes starting together, the later reader sees the earlier's row.
      blocking = (await agreement.refresh(true)).find((m) => m.blocking);
    } catch (err) {
      await processes.leave(record.processId).catch(() => undefined);
      throw err;
    }
    if (blocking) {
      await processes.leave(record.processId).catch(() => undefined);
      throw refusal(blocking);
    }
    agreement.#timer = setInterval(() => void agreement.#beat(), DEFAULTS.processes.heartbeatMs);
    agreement.#timer.unref();
    return agreement;
  }

  get processId(): string {
    return this.#record.processId;
  }

  /** The differences found by the last read. */
  get mismatches(): readonly SettingsMismatch[] {
    return this.#mismatches;
  }

  /** Reads the live processes again (at most once a second unless `force`) and returns the differences. */
  refresh(force = false): Promise<readonly SettingsMismatch[]> {
    if (this.#reading) return this.#reading;
    if (!force && performance.now() - this.#readAt < REFRESH_REUSE_MS) return Promise.resolve(this.#mismatches);
    this.#reading = (async () => {
      try {
        const found = compareSettings(this.#record, await this.#o.processes.live());
        this.#readAt = performance.now();
        this.#update(found);
        return found;
      } finally {
        this.#reading = null;
      }
    })();
    return this.#reading;
  }

  async #beat(): Promise<void> {
    try {
      await this.#o.processes.heartbeat(this.#record);
      await this.refresh(true);
    } catch (err) {
      // The database is away; the row expires if it stays away, and readiness reports the store itself.
      this.#o.logger.log('warn', 'settings heartbeat failed', { error: (err as Error).message });
    }
  }

  #update(found: readonly SettingsMismatch[]): void {
    const key = (list: readonly SettingsMismatch[]) =>
      JSON.stringify(list.map((m) => [m.setting, m.processId, m.there]));
    if (key(found) === key(this.#mismatches)) {
      this.#mismatches = found;
      return;
    }
    this.#mismatches = found;
    if (this.#closed) return;
    if (found.length > 0) {
      // Loud: until the processes agree, work may be answered or sent under different rules.
      this.#o.logger.log('warn', 'SETTINGS DIFFER from other live processes on this database', {
        settings: [...new Set(found.map((m) => m.setting))].join(', '),
        differences: found.map((m) => `${m.setting}: here ${m.here}, ${m.role} ${m.processId} ${m.there}`).join('; '),
        see: 'docs/scaling.md#settings-that-must-match',
      });
    } else this.#o.logger.log('info', 'settings agree with every live process again');
    this.#o.onChange?.(found);
  }

  /** Stops the heartbeat and takes the row back, so the processes left compare only with each other. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#reading?.catch(() => undefined);
    await this.#o.processes.leave(this.#record.processId).catch(() => undefined);
  }
}
