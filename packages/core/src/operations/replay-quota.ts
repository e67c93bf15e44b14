// The daily window-replay quota (docs/rules.md#replay-quota), said once for both replays it counts: a window replay
// and a reactivation's catch-up. The store counts against it atomically; this says what it is and how a refusal reads.
import { DEFAULTS } from '../defaults.ts';
import { fail, type HooklineError } from '../errors.ts';
import type { ReplayQuota } from '../store/store.ts';
import { DAY_MS, type EngineParts } from './engine-parts.ts';

/** The tenant's quota at `now`: `max` window replays that selected something since the UTC midnight before `now`. */
export function dailyReplayQuota(settings: EngineParts['settings'], now: number): ReplayQuota {
  return { max: settings.replayQuotaPerDay ?? DEFAULTS.replay.quotaPerDay, since: now - (now % DAY_MS) };
}

/** The 429 a replay over `quota` answers, retryable at the next UTC midnight. */
export function replayQuotaExceeded(quota: ReplayQuota, now: number): HooklineError {
  return fail(
    'replay_quota_exceeded',
    { max: quota.max },
    { retryAfterSec: Math.ceil((quota.since + DAY_MS - now) / 1000) },
  );
}
