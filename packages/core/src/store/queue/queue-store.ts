// The delivery queue part of the store: what a dispatcher does with due work (claim, record, hold, end, leases).
import type {
  Attempt,
  Delivery,
  DeliveryStatus,
  Endpoint,
  EndpointStatus,
  Environment,
  PauseReason,
} from '../../domain.ts';
import type { HealthRule, Ladder } from '../../policy/types.ts';
import type { TraceContext } from '../../tracing/trace-context.ts';

/** A claimed delivery with everything a worker needs to send it, read in the claiming statement's transaction. */
export interface ClaimedDelivery {
  delivery: Delivery;
  body: Buffer;
  endpoint: Endpoint & { version: number };
  /** The tenant's environment, read in the same statement (no query per attempt). */
  environment: Environment;
  replayId: string | null;
  /** The event's stored trace context (docs/observability.md#traces); null: none. Stores always return it. */
  trace?: TraceContext | null;
}

/** One finished attempt and the delivery state it leads to; many are committed together. */
export interface AttemptRecord {
  attempt: Attempt;
  workerId: string;
  next:
    | { status: 'pending'; nextAttemptAt: number; ladder: Ladder }
    | { status: 'succeeded' }
    | { status: 'failed'; reason: string };
  progress: {
    fastFailures: number;
    slowFailures: number;
    slowStartedAt: number | null;
    firstAttemptAt: number | null;
  };
  /** Set when the attempt was a replay's: progress counters to bump. */
  replayId: string | null;
  /** The delivery's previous attempt time (null: first attempt); brief's auto-suspend counts failed events with it. */
  previousAttemptAt?: number | null;
  /** How the attempt counts for endpoint health; null: it does not (a failed replay or test). */
  health: {
    rule: HealthRule;
    countsFailure: boolean;
    countsSuccess: boolean;
    /** The notifications' reopen window (docs/rules.md#notifications); absent: DEFAULTS.notifications.reopenWindowMs. */
    reopenWindowMs?: number;
  } | null;
  /** Breaker window to count this attempt's delivery in (by its latest attempt); null when the policy has no breaker. */
  breakerScope: string | null;
  /**
   * The delivery's ordering key, as the dispatcher knows it: the commit locks the key first, so an accept numbering the
   * key's next delivery never interleaves with this one ending its head (docs/rules.md#ordered-claim). The next of the
   * key becomes due when the delivery ends whether or not this is given.
   */
  ordering?: { endpointId: string; key: string };
}

/** An endpoint health change made while recording (degraded, paused, recovered); used for notifications. */
export interface HealthTransition {
  tenantId: string;
  endpointId: string;
  from: EndpointStatus;
  to: EndpointStatus;
  reason: PauseReason | 'recovered' | 'failing';
  at: number;
}

export interface ClaimOptions {
  now: number;
  limit: number;
  leaseUntil: number;
  workerId: string;
  /** Endpoints this worker already has at their concurrency cap: skip their rows. */
  saturatedEndpoints: readonly string[];
  /** An endpoint may have at most max_concurrency × leaseFactor deliveries leased across all workers (default 1). */
  leaseFactor?: number;
}

export interface DeliveryQueueStore {
  /**
   * Leases due `pending`/`held` deliveries: on PostgreSQL in one statement (status → delivering); on SQLite in memory on
   * the store thread, the rows unwritten (docs/rules.md#sqlite-leases). Either way they read `delivering` while leased.
   */
  claimDue(options: ClaimOptions): Promise<ClaimedDelivery[]>;
  /**
   * Commits many attempts and their deliveries' next states in one transaction; returns health transitions. The
   * transitions' notifications and the failure summaries of deliveries that end `failed` (not replays) are written in
   * the same transaction (docs/rules.md#notifications).
   * Idempotent, and no record fails the batch for its delivery's sake: one whose delivery was deleted meanwhile (its
   * endpoint or tenant deleted mid-flight) writes nothing; one whose lease was lost keeps only its attempt; one
   * already committed (a retry after a commit whose outcome was lost) writes nothing again.
   * An attempt whose worker still held the lease takes over its delivery's held period (heldFrom = the delivery's
   * heldSince, heldUntil = its heldUntil or else the attempt's start), which the delivery then clears.
   */
  recordAttempts(records: AttemptRecord[], now: number): Promise<HealthTransition[]>;
  /**
   * Puts leased deliveries back to `held` (breaker open) without an attempt. Their held period starts now unless one is
   * already open (a re-hold keeps its start); the delivery's next recorded attempt takes it over (Attempt.heldFrom).
   */
  holdDeliveries(ids: string[], workerId: string, until: number, now: number): Promise<void>;
  /**
   * Ends deliveries without an attempt: `failed` (age limit while held; endpoint paused while in progress, docs/rules.md#paused-endpoint).
   * Failed ones join their endpoint's failure summary in the same transaction unless `summarise` is false (a test delivery).
   */
  endDeliveries(
    ids: string[],
    workerId: string | null,
    status: 'failed' | 'skipped',
    reason: string,
    now: number,
    options?: { summarise?: boolean },
  ): Promise<void>;
  /** Hands leased deliveries this worker never started back (`pending`, due as before): a stopping worker's queue. */
  releaseLeases(ids: string[], workerId: string, now: number): Promise<number>;
  /** Returns deliveries whose lease expired to `pending`; the count. */
  releaseExpiredLeases(now: number): Promise<number>;
  /**
   * Returns every leased delivery to `pending`, due now; the count. Only for a store with one worker process (SQLite),
   * whose starting worker knows every lease on the file is its dead predecessor's.
   */
  releaseAllLeases(now: number): Promise<number>;
  /** Which of these endpoint ids still exist (a worker drops the queued work of deleted ones). */
  existingEndpoints(ids: readonly string[]): Promise<string[]>;
  /** The earliest next_attempt_at of pending/held work, or null. */
  nextDueAt(): Promise<number | null>;
  /** Deliveries leased by a worker right now (per endpoint), for cross-process concurrency caps. */
  countInFlight(endpointId: string): Promise<number>;
  /**
   * Retry now (docs/rules.md#retry-now): a pending or held delivery heading its ordering key, due later, becomes due
   * `now` (its next attempt on its ladder). False when it is not such a delivery, or already due.
   */
  retryDelivery(tenantId: string, id: string, now: number): Promise<boolean>;
  /** Retry now for an endpoint: every pending delivery due later (of a key, only its head) becomes due `now`; the count. */
  retryEndpointDeliveries(endpointId: string, now: number): Promise<number>;
  /** The head of an ordering key on an endpoint (docs/rules.md#retry-now), or null when the key is free. */
  findKeyHead(endpointId: string, orderingKey: string): Promise<{ id: string; status: DeliveryStatus } | null>;
  /** Records the concurrency the dispatcher learned for an endpoint (null: not throttled); not an edit of the endpoint. */
  setEffectiveConcurrency(endpointId: string, value: number | null): Promise<void>;
  /**
   * Records a test delivery's one attempt and ends its delivery (succeeded/failed); health as in AttemptRecord.
   * With `workerId`, only while that worker still holds the delivery's lease (else the attempt is kept, the state not).
   */
  recordTestAttempt(
    attempt: Attempt,
    health: AttemptRecord['health'],
    now: number,
    workerId?: string,
  ): Promise<HealthTransition[]>;
}
