// The narrow store interface every backend implements (SQLite, PostgreSQL); store-conformance.ts checks them alike.
import type {
  Attempt,
  AttemptTrigger,
  Delivery,
  DeliveryStatus,
  Endpoint,
  EndpointStatus,
  Environment,
  EventRecord,
  Ordering,
  OrderingOnFailure,
  PauseReason,
  Scheme,
  Tenant,
} from '../domain.ts';
import type { PayloadFilter } from '../filters/payload-filter.ts';
import type { HealthRule, Ladder } from '../policy/types.ts';
import type { StoreProblem } from './storage-fault.ts';

export type { StoreProblem } from './storage-fault.ts';

export interface Page<T> {
  items: T[];
  /** Opaque; pass back to get the next page. Null on the last page. */
  nextCursor: string | null;
}

/** A tenant as created: the environment defaults to live (docs/rules.md#environments). */
export type NewTenant = Omit<Tenant, 'environment'> & { environment?: Environment };

/** What may change on a tenant: everything but its id, creation time and environment. */
export type TenantPatch = Partial<Omit<Tenant, 'id' | 'createdAt' | 'environment'>>;

export interface ApiKeyRecord {
  id: string;
  tenantId: string;
  name: string;
  prefix: string;
  hash: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface SealedSecret {
  kid: string;
  endpointId: string;
  sealed: string;
  createdAt: number;
  expiresAt: number | null;
}

export interface NewEvent {
  event: EventRecord;
  bodyHash: string;
  /** Deliveries to create with the event, in the same transaction. */
  deliveries: Array<{
    id: string;
    endpointId: string;
    status: 'pending' | 'skipped';
    nextAttemptAt: number | null;
    /** The event's ordering key, set when this endpoint orders by key: the delivery is numbered next in the key's order. */
    orderingKey?: string;
    /** Inserted already leased (`delivering`) by this worker until then: a test delivery its sender sends at once. */
    lease?: { workerId: string; until: number };
  }>;
}

export type AcceptResult =
  | { kind: 'created'; event: EventRecord; deliveries: Delivery[] }
  | { kind: 'existing'; event: EventRecord; deliveries: Delivery[] }
  | { kind: 'conflict'; eventId: string };

/** A claimed delivery with everything a worker needs to send it, read in the claiming statement's transaction. */
export interface ClaimedDelivery {
  delivery: Delivery;
  body: Buffer;
  endpoint: Endpoint & { version: number };
  /** The tenant's environment, read in the same statement (no query per attempt). */
  environment: Environment;
  replayId: string | null;
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
  health: { rule: HealthRule; countsFailure: boolean; countsSuccess: boolean } | null;
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

export interface BreakerRow {
  scopeKey: string;
  tenantId: string;
  state: 'closed' | 'open' | 'probing';
  pauseMs: number;
  openedAt: number | null;
  nextProbeAt: number | null;
  probeDeliveryId: string | null;
  updatedAt: number;
}

/** A breaker scope's sliding window: distinct deliveries whose latest attempt lies in it, and how many of those failed. */
export interface BreakerWindow {
  deliveries: number;
  /** Deliveries whose latest attempt in the window was a delivery failure (client errors are not). */
  failures: number;
}

export interface DeliveryFilter {
  tenantId: string;
  status?: DeliveryStatus;
  endpointId?: string;
  eventType?: string;
  /** The producer's event id (the event's `event_id`). */
  eventId?: string;
  /** Inclusive bounds on created_at (ms). */
  since?: number;
  until?: number;
}

/** One endpoint's queue and recent outcomes (GET …/stats). */
export interface EndpointStats {
  endpointId: string;
  endpointStatus: EndpointStatus;
  queued: { pending: number; delivering: number; held: number };
  oldestDueAt: number | null;
  /** Deliveries that ended with their last attempt in the window. */
  succeeded: number;
  failed: number;
}

/** The daily window-replay quota (docs/rules.md#replay-quota): at most `max` replays that selected something since `since`. */
export interface ReplayQuota {
  max: number;
  since: number;
}

export type WindowReplayResult = { kind: 'scheduled'; selected: number } | { kind: 'quota_exceeded'; used: number };

/** reactivateWithCatchUp's answer; only `scheduled` changed anything. */
export type CatchUpResult =
  | { kind: 'scheduled'; endpoint: Endpoint & { version: number }; replay: ReplayRow }
  | { kind: 'quota_exceeded'; used: number }
  | { kind: 'not_paused'; status: EndpointStatus }
  | { kind: 'not_found' };

export interface ReplayRow {
  id: string;
  tenantId: string;
  endpointId: string | null;
  kind: 'window' | 'single';
  sinceMs: number | null;
  untilMs: number | null;
  includeSkipped: boolean;
  selected: number;
  attempted: number;
  succeeded: number;
  failed: number;
  createdAt: number;
}

export interface Notice {
  id: string;
  tenantId: string;
  /** The tenant's environment, read from the tenant (a notice stores none of its own). */
  environment: Environment;
  kind: string;
  subjectId: string | null;
  message: string;
  data: Record<string, unknown>;
  createdAt: number;
}

/** What the owners are told about (docs/rules.md#notifications); `deliveries.failed` is a per-endpoint summary. */
export type OutboxKind =
  | 'endpoint.degraded'
  | 'endpoint.paused'
  | 'endpoint.recovered'
  | 'breaker.opened'
  | 'breaker.closed'
  | 'deliveries.failed';

/** A notification written in the transaction of the transition that causes it; its id is the notice's and the operational event's. */
export interface OutboxEntry {
  id: string;
  tenantId: string;
  kind: OutboxKind;
  /** The endpoint, breaker scope or endpoint whose deliveries failed. */
  subjectId: string | null;
  /** The endpoint involved: an operational event about the operations endpoint is never sent through it. */
  endpointId: string | null;
  data: Record<string, unknown>;
  createdAt: number;
}

/** An outbox row as the drainer claims it. */
export interface OutboxRow extends OutboxEntry {
  status: 'pending' | 'sent' | 'abandoned';
  /** Sends tried before this one. */
  tries: number;
  dueAt: number;
  leaseUntil: number | null;
  lastError: string | null;
}

export interface EventTypeRow {
  name: string;
  description: string;
  definition: unknown;
  updatedAt: number;
}

export interface EndpointPatch {
  url?: string;
  description?: string;
  eventTypes?: string[];
  policy?: string;
  scheme?: Scheme;
  timeoutMs?: number | null;
  maxConcurrency?: number;
  ordering?: Ordering;
  orderingOnFailure?: OrderingOnFailure;
  payloadFilter?: PayloadFilter | null;
  customHeaders?: Record<string, string>;
  rateLimitPerS?: number | null;
  status?: EndpointStatus;
  pauseReason?: PauseReason | null;
  /** Clears the failure streak and degradation (a URL change or reactivation does). */
  clearHealth?: boolean;
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

export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Whether claimDue itself holds endpoint concurrency caps across worker processes (PostgreSQL). A SQLite file has one
   * worker process, whose lanes hold the caps; its claim only skips the endpoints the worker reports saturated.
   */
  readonly capsAcrossWorkers: boolean;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** True when the store answers a trivial query. */
  ping(): Promise<boolean>;
  /**
   * Why the store cannot take writes now (readiness), or null: a full disk, failing writes, a failed checkpointer,
   * or a `fatal` failure (a failed fsync, a dead store thread) after which it refuses every call for good.
   */
  problem?(): Promise<StoreProblem | null>;
  /** `listener` is called once when the store fails for good: the process should exit and let recovery run. */
  onFatal?(listener: (err: Error) => void): void;
  /**
   * Stores shared by several processes (PostgreSQL: LISTEN/NOTIFY) call `cb` when another process commits work
   * that is due now, so idle dispatchers claim at once instead of at their next poll. Returns the unsubscribe.
   */
  onDue?(cb: () => void): () => void;

  // settings (admin token hash, etc.)
  getSetting(key: string): Promise<string | null>;
  setSetting(key: string, value: string): Promise<void>;

  // tenants
  createTenant(tenant: NewTenant): Promise<void>;
  getTenant(id: string): Promise<Tenant | null>;
  /** Oldest first; with `environment`, only that environment's tenants. */
  listTenants(cursor: string | null, limit: number, filter?: { environment?: Environment }): Promise<Page<Tenant>>;
  updateTenant(id: string, patch: TenantPatch, now: number): Promise<Tenant | null>;
  deleteTenant(id: string): Promise<boolean>;

  // api keys
  createApiKey(key: ApiKeyRecord): Promise<void>;
  listApiKeys(tenantId: string): Promise<ApiKeyRecord[]>;
  revokeApiKey(tenantId: string, id: string, now: number): Promise<boolean>;
  /** Sets a live key's last_used_at to `now` unless it was set less than `granularityMs` before. */
  touchApiKey(id: string, now: number, granularityMs: number): Promise<void>;
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null>;

  // console portal links (single-use sign-in links; only the token's sha256 is stored)
  /** Records a link and forgets the ones that expired before `now`. */
  createPortalLink(
    link: { hash: string; tenantId: string; createdAt: number; expiresAt: number },
    now: number,
  ): Promise<void>;
  /** Marks the link used and returns its tenant, if it was unused and unexpired at `now`; else null. Atomic: one use wins. */
  consumePortalLink(hash: string, now: number): Promise<string | null>;

  // endpoints
  createEndpoint(endpoint: Endpoint, secret: SealedSecret): Promise<void>;
  getEndpoint(tenantId: string, id: string): Promise<(Endpoint & { version: number }) | null>;
  listEndpoints(tenantId: string, cursor: string | null, limit: number): Promise<Page<Endpoint>>;
  /** Every endpoint of a tenant that is not deleted; used for fan-out. */
  listTenantEndpoints(tenantId: string): Promise<Endpoint[]>;
  updateEndpoint(
    tenantId: string,
    id: string,
    patch: EndpointPatch,
    now: number,
  ): Promise<(Endpoint & { version: number }) | null>;
  deleteEndpoint(tenantId: string, id: string): Promise<boolean>;
  listSecrets(endpointId: string): Promise<SealedSecret[]>;
  /** Adds a new current secret and retires the current ones at `retireAt`. */
  rotateSecret(endpointId: string, secret: SealedSecret, retireAt: number, now: number): Promise<void>;

  // events
  /** Each NewEvent is inserted with its deliveries, all in one durable transaction. */
  acceptEvents(events: NewEvent[]): Promise<AcceptResult[]>;
  getEvent(tenantId: string, eventId: string): Promise<{ event: EventRecord; deliveries: Delivery[] } | null>;

  // dispatch
  /** Leases due `pending`/`held` deliveries (status → delivering) in one statement. */
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
  /** Records the concurrency the dispatcher learned for an endpoint (null: not throttled); not an edit of the endpoint. */
  setEffectiveConcurrency(endpointId: string, value: number | null): Promise<void>;

  // deliveries and attempts (API)
  getDelivery(tenantId: string, id: string): Promise<Delivery | null>;
  listDeliveries(filter: DeliveryFilter, cursor: string | null, limit: number): Promise<Page<Delivery>>;
  listAttempts(deliveryId: string): Promise<Attempt[]>;
  countByStatus(): Promise<Record<DeliveryStatus, number>>;
  /** Deliveries not yet terminal (pending, delivering, held), from indexes only: what metrics scrapes read. */
  countQueued(): Promise<Record<'pending' | 'delivering' | 'held', number>>;
  /** Breakers open and probing over every tenant. */
  countBreakers(): Promise<{ open: number; probing: number }>;
  /** The earliest `next_attempt_at` of a pending delivery due at `now` (null: nothing due waits). */
  oldestDueAt(now: number): Promise<number | null>;
  /** Per endpoint of the tenant, oldest id first: its queue, its oldest due delivery, and what ended since `since`. */
  endpointStats(tenantId: string, since: number, now: number): Promise<EndpointStats[]>;
  /** The tenant's deliveries by the epoch minute of their last attempt since `since`: succeeded, failed, retrying (pending after an attempt). */
  deliveriesPerMinute(
    tenantId: string,
    since: number,
  ): Promise<Array<{ minute: number; succeeded: number; retrying: number; failed: number }>>;
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

  // replays
  createReplay(replay: ReplayRow): Promise<void>;
  getReplay(tenantId: string, id: string): Promise<ReplayRow | null>;
  /**
   * Marks up to `limit` of the endpoint's failed (and optionally skipped) deliveries, oldest first, whose
   * last attempt (or creation, when never attempted) lies in [since, until], for one replay attempt now.
   * With a quota, atomically (two concurrent requests at max − 1 never both pass): a replay that selects
   * something is refused, and nothing is written, when the tenant already has `quota.max` window replays that
   * selected something since `quota.since`; a replay that selects nothing is recorded and never uses the quota.
   */
  scheduleWindowReplay(replay: ReplayRow, limit: number, now: number, quota?: ReplayQuota): Promise<WindowReplayResult>;
  scheduleSingleReplay(replay: ReplayRow, deliveryId: string, now: number): Promise<boolean>;
  /**
   * Reactivates a paused endpoint (`patch`) and, in the same transaction, schedules a window replay (`replay`, kind
   * window, under the quota) of its deliveries that failed or were skipped since the pause began, by when they last
   * changed: the deliveries failed as endpoint_paused at their next claim are among them (docs/rules.md#catch-up).
   * Over the quota nothing changes: the endpoint stays paused.
   */
  reactivateWithCatchUp(
    tenantId: string,
    id: string,
    patch: EndpointPatch,
    replay: ReplayRow,
    limit: number,
    now: number,
    quota?: ReplayQuota,
  ): Promise<CatchUpResult>;
  /**
   * Marks a failed delivery of an ordering key dismissed, so it no longer holds its key (docs/rules.md#ordered-dismiss);
   * it stays failed. False when it is not failed, has no key, or is dismissed already.
   */
  dismissDelivery(tenantId: string, id: string, now: number): Promise<boolean>;

  // breaker
  getBreaker(scopeKey: string): Promise<BreakerRow | null>;
  /**
   * Compare-and-set on `updatedAt` (null: insert if absent); false when another worker changed it first. `notify`
   * (the transition's notification) is written in the same transaction, only when the change wins.
   */
  saveBreaker(row: BreakerRow, expectedUpdatedAt: number | null, notify?: OutboxEntry | null): Promise<boolean>;
  /** Distinct deliveries of the scope last attempted at or after `since`, and how many of those attempts failed. */
  breakerWindow(scopeKey: string, since: number): Promise<BreakerWindow>;
  resetBreakerWindow(scopeKey: string): Promise<void>;
  /** Makes every held delivery of a scope due now, ending its held period now. */
  releaseHeld(scope: { tenantId: string } | { endpointId: string }, now: number): Promise<number>;
  listBreakers(tenantId: string): Promise<BreakerRow[]>;

  // health sweeps
  /** Endpoints degraded since before `failingBefore`, to pause (standard: 5 days). */
  listEndpointsFailingSince(failingBefore: number): Promise<Endpoint[]>;
  /** Pauses (reason `failing`) an endpoint still degraded with this exact streak start, its notification in the same transaction; false when it moved on. */
  pauseFailingEndpoint(endpointId: string, failingSince: number, now: number): Promise<boolean>;

  // notices
  /** Idempotent by id: a notification sent again after a crash is listed once. */
  addNotice(notice: Omit<Notice, 'environment'>): Promise<void>;

  // the notification outbox (docs/rules.md#notifications): rows are written by the transitions' own transactions
  /** Leases up to `limit` due pending rows until `leaseUntil` (PostgreSQL: FOR UPDATE SKIP LOCKED), oldest due first. */
  claimOutbox(now: number, limit: number, leaseUntil: number): Promise<OutboxRow[]>;
  /** Marks a row sent; false when it was not pending (another worker finished it first). */
  finishOutbox(id: string, now: number): Promise<boolean>;
  /** A failed send: due again at `dueAt`, or `abandoned` for good; the error is kept. */
  retryOutbox(id: string, outcome: { dueAt: number } | { abandon: true }, error: string, now: number): Promise<void>;
  /** Hands back every outbox lease (a store with one worker process, SQLite: they are a dead predecessor's). */
  releaseOutboxLeases(): Promise<number>;
  /** Turns each endpoint's failures due a summary at `now` (docs/rules.md#notifications) into a `deliveries.failed` row; the count. */
  flushFailureSummaries(now: number, windowMs: number): Promise<number>;
  /** Deletes sent and abandoned rows last touched before `before`; the count. */
  purgeOutbox(before: number): Promise<number>;
  /** Forgets console portal links that expired before `before`, used or not; the count. */
  purgePortalLinks(before: number): Promise<number>;
  listNotices(tenantId: string, cursor: string | null, limit: number): Promise<Page<Notice>>;

  // event types
  putEventType(row: EventTypeRow): Promise<void>;
  getEventType(name: string): Promise<EventTypeRow | null>;
  listEventTypes(): Promise<EventTypeRow[]>;

  // retention
  /** Deletes up to `batch` terminal deliveries (attempts cascade) last touched before `before`; the count. */
  purgeDeliveries(before: number, batch: number): Promise<number>;
  /** Deletes events older than `before` that no longer have deliveries; the count. */
  purgeEvents(before: number, batch: number): Promise<number>;
  /** Deletes breaker window rows last attempted before `before`; the count. */
  purgeBreakerWindow(before: number): Promise<number>;
}

export type { AttemptTrigger };
