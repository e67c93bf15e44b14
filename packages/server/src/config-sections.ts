// The config's nested sections with a shape of their own (smtp, dispatcher, notifications, tenant limits): each
// section's type and its reader, which refuses unknown keys by their dotted name (egress and tracing have their own
// modules: egress-config.ts, config-tracing.ts).
import { NO_TENANT_LIMITS, type TenantLimits } from '@hookline/core/config';
import { ConfigError } from './config-error.ts';
import { bool, duration, int, str } from './config-readers.ts';

export interface SmtpConfig {
  host: string;
  port: number;
  from: string;
  secure?: boolean;
  user?: string;
  pass?: string;
}

/** leaseMs: how long a claim is held before another worker may take it (default 90 s; outlives the longest send). */
export interface DispatcherConfig {
  batchSize: number;
  maxInFlight: number;
  leaseMs: number;
}

/** reopenWindow: a degradation this soon after a recovery is the same incident, not a new notice (docs/rules.md#notifications). */
export interface NotificationsConfig {
  reopenWindow: string;
  reopenWindowMs: number;
}

export function smtp(v: unknown): SmtpConfig | null {
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

export function dispatcher(v: unknown): DispatcherConfig {
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

export function notifications(v: unknown): NotificationsConfig {
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

export function tenantLimits(v: unknown): TenantLimits {
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new ConfigError('limits', 'must be an object {eventsPerS, eventsPerDay, maxEndpoints, maxPayloadBytes}');
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (!(k in NO_TENANT_LIMITS))
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
