// Every default the engine ships with, said once: its parts and the server's config read them from here.
import { deepFreeze } from './deep-freeze.ts';
import { PAYMENTS } from './policy/presets.ts';
import type { BreakerRule } from './policy/types.ts';

const SECOND = 1_000;
const DAY = 86_400_000;

export const DEFAULTS = deepFreeze({
  dispatcher: {
    /** Due deliveries claimed per store round trip: larger claims cost less store time per delivery (docs/performance.md). */
    batchSize: 500,
    /** Sends this process has leased and not yet recorded, over every endpoint. */
    maxInFlight: 2000,
    /** How long a claim is held before another worker may take it: outlives the longest send (60 s timeout cap). */
    leaseMs: 90 * SECOND,
    /** Idle re-check for due work when nothing wakes the dispatcher. */
    pollMs: SECOND,
    /** How often expired leases are returned. */
    sweepMs: 5 * SECOND,
  },
  /** A breaker probe whose worker died is replaced once its lease has surely expired: the lease plus this margin. */
  staleProbeMarginMs: 30 * SECOND,
  /** The breaker `"breaker": true` or a partial user breaker starts from: the payments preset's (docs/rules.md#breaker-scope). */
  breaker: PAYMENTS.breaker as BreakerRule,
  replay: {
    /** A window replay without `since` reaches back this far (docs/rules.md#replay-window). */
    windowMs: DAY,
    /** Window replays per tenant per UTC day (docs/rules.md#replay-quota). */
    quotaPerDay: 20,
    /** Most deliveries one window replay selects (docs/rules.md#replay-window). */
    maxDeliveries: 10_000,
  },
  /** Settings rows of running processes (docs/scaling.md#settings-that-must-match). */
  processes: {
    /** How often a process refreshes its row. */
    heartbeatMs: 10 * SECOND,
    /** A row not refreshed for this long is a process that is gone (killed, or cut off from the database). */
    staleAfterMs: 60 * SECOND,
  },
  /** How long a rotated-out secret stays live (docs/rules.md#secret-rotation). */
  rotationOverlapMs: DAY,
  retention: {
    /** Terminal deliveries, attempts included, are purged this long after they were last touched (docs/rules.md#retention). */
    deliveriesMs: 30 * DAY,
    /** Sent and abandoned notification outbox rows are purged this long after they were created (docs/rules.md#notifications). */
    outboxMs: 7 * DAY,
    /** Rows per purge statement. */
    batch: 500,
    /** Batches per purge run at most. */
    maxBatches: 200,
  },
  notifications: {
    /**
     * A degradation that begins this soon after the endpoint's last recovery reopens the same incident, and a recovery
     * is told once it has held this long (docs/rules.md#notifications).
     */
    reopenWindowMs: 15 * 60 * SECOND,
    /** An endpoint's client certificate is told about this long before it expires (docs/rules.md#client-certificate). */
    certificateExpiryMs: 14 * 24 * 60 * 60 * SECOND,
  },
});
