// The limit flags of `hookline tenants set` (docs/rules.md#tenant-limits): each is one field of the PATCH body's
// `limits`; `none` sends null, which takes the server's configured default.
import { usageError } from '../cli-error.ts';
import { intValue } from '../parse-args.ts';
import type { TenantLimitsBody } from '../request-bodies.ts';

/** Flag → the `limits` field it sets. */
export const LIMIT_FLAGS = {
  'events-per-s': 'events_per_s',
  'events-per-day': 'events_per_day',
  'max-endpoints': 'max_endpoints',
  'max-payload-bytes': 'max_payload_bytes',
} as const satisfies Record<string, keyof TenantLimitsBody>;

export type LimitFlag = keyof typeof LIMIT_FLAGS;
export const LIMIT_OPTIONS = {
  'events-per-s': { type: 'string' },
  'events-per-day': { type: 'string' },
  'max-endpoints': { type: 'string' },
  'max-payload-bytes': { type: 'string' },
} as const satisfies Record<LimitFlag, { type: 'string' }>;

export const LIMIT_HELP = `  --events-per-s <n|none>       new events per second, shared by every API process (e.g. 50, 0.5)
  --events-per-day <n|none>     new events per UTC day
  --max-endpoints <n|none>      endpoints the tenant may have
  --max-payload-bytes <n|none>  largest event envelope, in bytes
                                (none: the server's configured default; admin token only)`;

/** The `limits` object the given flags ask for; null when no limit flag was given. */
export function limitsBody(command: string, values: Partial<Record<LimitFlag, string>>): TenantLimitsBody | null {
  const out: TenantLimitsBody = {};
  for (const [flag, field] of Object.entries(LIMIT_FLAGS) as Array<[LimitFlag, keyof TenantLimitsBody]>) {
    const raw = values[flag];
    if (raw === undefined) continue;
    if (raw.trim() === 'none') out[field] = null;
    else if (flag === 'events-per-s') {
      const n = Number(raw);
      if (!/^\s*\d+(\.\d+)?\s*$/.test(raw) || !(n > 0) || n > 1_000_000)
        throw usageError(`${command}: --${flag} must be a number above 0 and at most 1000000, or none, got '${raw}'`);
      out[field] = n;
    } else out[field] = intValue(command, flag, raw, { min: flag === 'max-payload-bytes' ? 1 : 0 });
  }
  return Object.keys(out).length > 0 ? out : null;
}
