// The embeddable engine: one object wiring store, policies, signing, ingest, dispatcher and the operations on them.
import { systemClock, type Clock } from './clock.ts';
import type { Attempt, Delivery, Endpoint, EndpointStatus, Ordering, OrderingOnFailure, Scheme } from './domain.ts';
import { fail, HooklineError } from './errors.ts';
import { DEFAULTS } from './defaults.ts';
import { checkEndpointUrl } from './http/address-guard.ts';
import { createSender } from './http/sender.ts';
import type { LookupAll } from './http/guarded-lookup.ts';
import { newId } from './ids.ts';
import { Ingest, expectAccepted, type EventInput } from './ingest.ts';
import { silentLogger, type Logger } from './logger.ts';
import { DEFAULT_MONEY_RULES } from './policy/money-rules.ts';
import { PolicyRegistry } from './policy/registry.ts';
import type { MoneyRule } from './policy/types.ts';
import { createSecretBox, type SecretBox } from './secret-box.ts';
import { generateSecret } from './signing/signing-keys.ts';
import { signHeaders } from './signing/sign-headers.ts';
import type { AdmissionGate } from './dispatch/admission.ts';
import { Dispatcher, type DeliverySender, type DispatchObserver } from './dispatch/dispatcher.ts';
import { Breaker } from './breaker/breaker-gate.ts';
import { Maintenance } from './maintenance/runner.ts';
import type { RetentionOptions } from './maintenance/retention.ts';
import { newestFirst, SecretCache } from './dispatch/secret-cache.ts';
import { attemptFromResult } from './dispatch/attempt-from-result.ts';
import { runDoctor, type DoctorReport } from './doctor/run-doctor.ts';
import type { EndpointPatch, EndpointStats, HealthTransition, ReplayRow, Store } from './store/store.ts';

export interface HooklineOptions {
  store: Store;
  /** 32-byte key (base64 or hex) that encrypts signing secrets at rest. */
  masterKey: string | Buffer;
  clock?: Clock;
  policies?: PolicyRegistry;
  moneyRules?: readonly MoneyRule[];
  sender?: DeliverySender;
  /** DNS resolution for the built-in sender (tests); its answers still pass the connect-time SSRF guard. */
  lookup?: LookupAll;
  logger?: Logger;
  /** Plain http endpoint URLs (development only). */
  allowHttp?: boolean;
  /** Loopback/private endpoint targets (development and tests only). */
  allowPrivateTargets?: boolean;
  /** Replaces the circuit breaker as the dispatcher's gate (engine.breaker still answers status/reset). */
  gate?: AdmissionGate;
  observers?: DispatchObserver[];
  /** Circuit breaker tuning (docs/rules.md#breaker-scope); the rules themselves are policy data. */
  breaker?: { cacheMs?: number; staleProbeMs?: number };
  /** Health sweep and retention (docs/rules.md#health-pause, docs/rules.md#retention); started by start() unless `enabled: false`. */
  maintenance?: { enabled?: boolean; intervalMs?: number; retention?: Partial<RetentionOptions> };
  dispatcher?: { batchSize?: number; maxInFlight?: number; leaseFactor?: number; pollMs?: number; sweepMs?: number; leaseMs?: number; workerId?: string; logAttempts?: boolean; random?: () => number };
  /** Default secret-rotation overlap (docs/rules.md#secret-rotation: 24 h). */
  rotationOverlapMs?: number;
  /** Window replays per tenant per UTC day (docs/rules.md#replay-quota: 20). */
  replayQuotaPerDay?: number;
  /** Most deliveries one window replay selects (docs/rules.md#replay-window: 10,000). */
  replayMaxDeliveries?: number;
  /** Per event type: a money rule from the event-type registry overrides `moneyRules` (undefined: no opinion). */
  isMoneyOverride?: (type: string, data: unknown) => boolean | undefined;
}

export interface EndpointInput {
  url: string;
  description?: string;
  event_types?: string[];
  policy?: string;
  scheme?: Scheme;
  timeout_ms?: number | null;
  max_concurrency?: number | null;
  status?: EndpointStatus;
  /** docs/rules.md#ordered-delivery: `key` orders deliveries per event ordering_key (default `none`). */
  ordering?: Ordering;
  /** docs/rules.md#ordered-failure: what a failed delivery does to its key (default `continue`). */
  on_failure?: OrderingOnFailure;
}

/** What `doctorEndpoint` adds to the endpoint's own settings. */
export interface DoctorEndpointOptions {
  /** The event type the doctor's events carry, from the registry: its example is their data, its schema drives case 6. */
  contract?: { type: string; version?: string; example?: unknown; schema?: unknown };
  /** Lower caps (tests); never above 30 requests and 60 s. */
  maxRequests?: number;
  maxDurationMs?: number;
}

const DAY_MS = 86_400_000;
/** A test send's timeout is capped like the dispatcher's; its lease outlives the send by this margin. */
const TEST_MAX_TIMEOUT_MS = 60_000;
const TEST_LEASE_MARGIN_MS = 30_000;

export class Hookline {
  readonly store: Store;
  readonly clock: Clock;
  readonly policies: PolicyRegistry;
  readonly box: SecretBox;
  readonly logger: Logger;
  readonly ingest: Ingest;
  readonly dispatcher: Dispatcher;
  readonly sender: DeliverySender & { close?: () => Promise<void>; closeEndpoint?: (endpointId: string) => void };
  readonly secrets: SecretCache;
  /** The circuit breaker: the dispatcher's gate, and status/reset for the API and CLI. */
  readonly breaker: Breaker;
  /** Health sweep and retention; `runMaintenance(now)` runs one pass. */
  readonly maintenance: Maintenance;
  moneyRules: readonly MoneyRule[];
  readonly #o: HooklineOptions;
  #offDue: (() => void) | null = null;

  constructor(o: HooklineOptions) {
    this.#o = o;
    this.store = o.store;
    this.clock = o.clock ?? systemClock;
    this.policies = o.policies ?? new PolicyRegistry();
    this.box = createSecretBox(o.masterKey);
    this.logger = o.logger ?? silentLogger;
    this.moneyRules = o.moneyRules ?? DEFAULT_MONEY_RULES;
    this.sender = o.sender ?? createSender({ allowHttp: o.allowHttp, allowPrivateTargets: o.allowPrivateTargets, clock: this.clock, ...(o.lookup ? { lookup: o.lookup } : {}) });
    this.secrets = new SecretCache(this.store, this.box);
    this.ingest = new Ingest({ store: this.store, clock: this.clock, moneyRules: () => this.moneyRules, isMoneyOverride: o.isMoneyOverride });
    this.breaker = new Breaker({
      store: this.store,
      clock: this.clock,
      logger: this.logger,
      cacheMs: o.breaker?.cacheMs,
      // A probe whose worker died is replaced once its lease has surely expired.
      staleProbeMs: o.breaker?.staleProbeMs ?? (o.dispatcher?.leaseMs ?? DEFAULTS.dispatcher.leaseMs) + DEFAULTS.staleProbeMarginMs,
      onTransition: (t) => {
        for (const ob of this.dispatcher.observers) ob.breaker?.(t);
      },
      onRelease: () => this.dispatcher.wake(),
    });
    this.dispatcher = new Dispatcher({
      store: this.store,
      clock: this.clock,
      sender: this.sender,
      policies: this.policies,
      secrets: this.secrets,
      logger: this.logger,
      gate: o.gate ?? this.breaker,
      observers: o.observers,
      // One SQLite file has one writer process: leasing ahead is safe. Several PostgreSQL workers need exact caps.
      leaseFactor: this.store.dialect === 'sqlite' ? 25 : 1,
      ...o.dispatcher,
    });
    // A pause made while recording must make the next events `skipped` at once, not after the fan-out cache expires.
    this.dispatcher.addObserver({ health: (t) => this.ingest.invalidate(t.tenantId) });
    this.maintenance = new Maintenance({
      store: this.store,
      clock: this.clock,
      policies: this.policies,
      logger: this.logger,
      intervalMs: o.maintenance?.intervalMs,
      retention: o.maintenance?.retention,
      onHealth: (transitions) => this.#emitHealth(transitions),
    });
  }

  // ---- events

  /** Accepts an event durably (202 semantics) and wakes the dispatcher; 409 `event_conflict` on a different body. */
  async acceptEvent(tenantId: string, input: EventInput) {
    const r = expectAccepted(await this.ingest.accept(tenantId, input));
    if (r.kind === 'created' && r.deliveries.length) this.dispatcher.wake();
    return r;
  }

  /** Accepts many events in one group commit; each result is the event, or that item's error (event_conflict, …). */
  async acceptEvents(tenantId: string, inputs: EventInput[]) {
    const results = await this.ingest.acceptMany(tenantId, inputs);
    this.dispatcher.wake();
    return results.map((r) => (r instanceof Error ? r : r.kind === 'conflict' ? fail('event_conflict', { event_id: r.eventId }) : r));
  }

  // ---- endpoints

  checkUrl(url: string): string {
    const check = checkEndpointUrl(url, { allowHttp: this.#o.allowHttp, allowPrivateTargets: this.#o.allowPrivateTargets });
    if (!check.ok) throw fail(check.code);
    return check.url.toString();
  }

  #policyName(name: string | undefined): string {
    if (name === undefined) return this.policies.default().name;
    if (!this.policies.has(name)) throw fail('unknown_policy', { name });
    return name;
  }

  async createEndpoint(tenantId: string, input: EndpointInput): Promise<{ endpoint: Endpoint; secret: string }> {
    const now = this.clock.now();
    const url = this.checkUrl(input.url);
    const policyName = this.#policyName(input.policy);
    const policy = this.policies.get(policyName)!;
    const endpoint: Endpoint = {
      id: newId('ep', now),
      tenantId,
      url,
      description: input.description ?? '',
      eventTypes: input.event_types ?? [],
      policy: policyName,
      scheme: input.scheme ?? 'hookline',
      timeoutMs: input.timeout_ms ?? null,
      maxConcurrency: input.max_concurrency ?? policy.maxConcurrency,
      ordering: input.ordering ?? 'none',
      orderingOnFailure: input.on_failure ?? 'continue',
      status: input.status === 'paused' ? 'paused' : 'active',
      pauseReason: input.status === 'paused' ? 'manual' : null,
      failingSince: null,
      consecutiveFailedEvents: 0,
      lastSuccessAt: null,
      createdAt: now,
      updatedAt: now,
    };
    const secret = generateSecret();
    await this.store.createEndpoint(endpoint, { kid: newId('sec', now), endpointId: endpoint.id, sealed: this.box.seal(secret, endpoint.id), createdAt: now, expiresAt: null });
    this.ingest.invalidate(tenantId);
    return { endpoint, secret };
  }

  async getEndpoint(tenantId: string, id: string) {
    const ep = await this.store.getEndpoint(tenantId, id);
    if (!ep) throw fail('endpoint_not_found');
    return ep;
  }

  /**
   * Edits an endpoint. A URL change clears degradation and the failure streak; description and subscription
   * edits do not (docs/rules.md#health-clear). `status: 'active'` reactivates a paused endpoint; `paused` pauses it manually.
   */
  async updateEndpoint(tenantId: string, id: string, input: Partial<EndpointInput>) {
    const cur = await this.getEndpoint(tenantId, id);
    const patch: EndpointPatch = {};
    if (input.url !== undefined) {
      patch.url = this.checkUrl(input.url);
      if (patch.url !== cur.url) patch.clearHealth = true;
    }
    if (input.description !== undefined) patch.description = input.description;
    if (input.event_types !== undefined) patch.eventTypes = input.event_types;
    if (input.policy !== undefined) patch.policy = this.#policyName(input.policy);
    if (input.scheme !== undefined) patch.scheme = input.scheme;
    if (input.timeout_ms !== undefined) patch.timeoutMs = input.timeout_ms;
    if (input.max_concurrency !== undefined) {
      patch.maxConcurrency = input.max_concurrency ?? this.policies.get(patch.policy ?? cur.policy)!.maxConcurrency;
    }
    if (input.ordering !== undefined) patch.ordering = input.ordering;
    if (input.on_failure !== undefined) patch.orderingOnFailure = input.on_failure;
    if (input.status !== undefined && input.status !== cur.status) {
      if (input.status === 'paused') {
        patch.status = 'paused';
        patch.pauseReason = 'manual';
      } else if (input.status === 'active') {
        // Reactivation starts a clean slate: only this resumes a paused endpoint.
        patch.status = 'active';
        patch.pauseReason = null;
        patch.clearHealth = true;
      } else {
        throw new HooklineError('invalid_request', { detail: 'status can be set to active or paused' });
      }
    }
    const next = await this.store.updateEndpoint(tenantId, id, patch, this.clock.now());
    if (!next) throw fail('endpoint_not_found');
    this.ingest.invalidate(tenantId);
    if (patch.status === 'active') this.dispatcher.wake();
    return next;
  }

  /**
   * Deletes an endpoint with its deliveries, mid-flight or not: this process's dispatcher drops its queued work at
   * once (another process's within about a second), sends already on the wire finish and record nothing, and no
   * other endpoint's records are touched.
   */
  async deleteEndpoint(tenantId: string, id: string): Promise<void> {
    if (!(await this.store.deleteEndpoint(tenantId, id))) throw fail('endpoint_not_found');
    this.dispatcher.forgetEndpoint(id);
    this.ingest.invalidate(tenantId);
    this.secrets.forget(id);
    // Its HTTP pool goes too (a send still in flight finishes on it).
    this.sender.closeEndpoint?.(id);
  }

  /** Deletes a tenant and everything it owns, as deleteEndpoint does for each of its endpoints; false when absent. */
  async deleteTenant(tenantId: string): Promise<boolean> {
    const endpoints = await this.store.listTenantEndpoints(tenantId);
    if (!(await this.store.deleteTenant(tenantId))) return false;
    this.dispatcher.forgetTenant(tenantId);
    this.ingest.invalidate(tenantId);
    for (const ep of endpoints) {
      this.secrets.forget(ep.id);
      this.sender.closeEndpoint?.(ep.id);
    }
    return true;
  }

  /** Live secrets, newest first, with their retirement times. */
  async endpointSecrets(tenantId: string, id: string): Promise<Array<{ kid: string; secret: string; createdAt: number; expiresAt: number | null }>> {
    await this.getEndpoint(tenantId, id);
    const now = this.clock.now();
    return (await this.store.listSecrets(id))
      .filter((s) => s.expiresAt === null || s.expiresAt > now)
      .sort(newestFirst)
      .map((s) => ({ kid: s.kid, secret: this.box.open(s.sealed, id), createdAt: s.createdAt, expiresAt: s.expiresAt }));
  }

  /** New secret with a new kid; the old ones stay live for the overlap, then retire at that fixed time. */
  async rotateSecret(tenantId: string, id: string, overlapMs?: number) {
    await this.getEndpoint(tenantId, id);
    const now = this.clock.now();
    const overlap = overlapMs ?? this.#o.rotationOverlapMs ?? DEFAULTS.rotationOverlapMs;
    const secret = generateSecret();
    await this.store.rotateSecret(id, { kid: newId('sec', now), endpointId: id, sealed: this.box.seal(secret, id), createdAt: now, expiresAt: null }, now + overlap, now);
    return this.endpointSecrets(tenantId, id);
  }

  /**
   * One test delivery now (event type `hookline.test`); returns its attempt. Success clears degradation.
   * The delivery is inserted leased by this process for the send's timeout and a margin, so it always ends: by its
   * recorded attempt here, or, when this process dies or the record fails, by the dispatcher once the lease lapses.
   */
  async testEndpoint(tenantId: string, id: string): Promise<Attempt> {
    const ep = await this.getEndpoint(tenantId, id);
    const tenant = await this.store.getTenant(tenantId);
    if (!tenant) throw fail('tenant_not_found');
    const policy = this.policies.get(ep.policy) ?? this.policies.default();
    const timeoutMs = Math.min(ep.timeoutMs ?? policy.timeoutMs, TEST_MAX_TIMEOUT_MS);
    const prepared = await this.ingest.prepare(tenantId, { type: 'hookline.test', data: { endpoint_id: id, message: 'test delivery from Hookline' } });
    const now = this.clock.now();
    const deliveryId = newId('dlv', now);
    const workerId = this.dispatcher.workerId;
    prepared.deliveries = [{ id: deliveryId, endpointId: id, status: 'pending', nextAttemptAt: now, lease: { workerId, until: now + timeoutMs + TEST_LEASE_MARGIN_MS } }];
    await this.store.acceptEvents([prepared]);
    const startedAt = this.clock.now();
    let headers: Record<string, string>;
    let result: Awaited<ReturnType<DeliverySender['send']>>;
    try {
      headers = signHeaders({
        scheme: ep.scheme,
        eventId: prepared.event.eventId,
        deliveryId,
        timestampSec: Math.floor(startedAt / 1000),
        body: prepared.event.body,
        secrets: await this.secrets.live(id, ep.version, startedAt),
      });
      result = await this.sender.send({ url: ep.url, headers, body: prepared.event.body, timeoutMs, endpointId: id, maxConcurrency: ep.maxConcurrency });
    } catch (err) {
      // Not sent at all (no live secret, a sender fault): the delivery ends failed with the reason, never stays open.
      await this.store.endDeliveries([deliveryId], workerId, 'failed', `test delivery failed: ${(err as Error).message}`, this.clock.now());
      throw err;
    }
    const attempt = attemptFromResult({ deliveryId, tenantId, environment: tenant.environment, endpointId: id, n: 1, trigger: 'test', startedAt, requestHeaders: headers }, result);
    const transitions = await this.store.recordTestAttempt(attempt, { rule: policy.health, countsFailure: false, countsSuccess: true }, this.clock.now(), workerId);
    this.#emitHealth(transitions);
    return attempt;
  }

  /**
   * Runs the receiver doctor (issue 15) against the endpoint: its URL, scheme and live secrets (the older of two during
   * a rotation overlap is case 9's), its timeout, through the engine's sender and its SSRF rules. Records nothing and
   * leaves endpoint health alone. Refused for a paused endpoint.
   */
  async doctorEndpoint(tenantId: string, id: string, opts: DoctorEndpointOptions = {}): Promise<DoctorReport> {
    const ep = await this.getEndpoint(tenantId, id);
    if (ep.status === 'paused') throw fail('endpoint_paused');
    const policy = this.policies.get(ep.policy) ?? this.policies.default();
    const secrets = await this.secrets.live(id, ep.version, this.clock.now());
    const c = opts.contract;
    return runDoctor(
      {
        url: ep.url,
        scheme: ep.scheme,
        secrets,
        previousSecret: secrets.length > 1 ? secrets[secrets.length - 1] : null,
        ...(c ? { eventType: c.type, version: c.version, example: c.example, schema: c.schema } : {}),
        timeoutMs: ep.timeoutMs ?? policy.timeoutMs,
      },
      // No endpoint id: the doctor's requests use the per-origin pool, never the sockets the endpoint's deliveries hold.
      { sender: { send: (r) => this.sender.send(r) }, clock: this.clock, maxRequests: opts.maxRequests, maxDurationMs: opts.maxDurationMs },
    );
  }

  #emitHealth(transitions: HealthTransition[]): void {
    for (const t of transitions) {
      for (const ob of this.dispatcher.observers) {
        try {
          ob.health?.(t);
        } catch (err) {
          this.logger.log('error', 'health observer failed', { error: (err as Error).message });
        }
      }
    }
  }

  /**
   * An event for exactly one endpoint of the tenant, not fanned out by subscriptions: operational notifications
   * (endpoint.degraded, breaker.opened, …) to the tenant's operations endpoint. Idempotent on `event_id`.
   */
  async acceptEventFor(tenantId: string, endpointId: string, input: EventInput) {
    const ep = await this.getEndpoint(tenantId, endpointId);
    const prepared = await this.ingest.prepare(tenantId, input);
    const at = prepared.event.createdAt;
    const paused = ep.status === 'paused';
    prepared.deliveries = [{ id: newId('dlv', at), endpointId, status: paused ? 'skipped' : 'pending', nextAttemptAt: paused ? null : at }];
    const [r] = await this.store.acceptEvents([prepared]);
    const accepted = expectAccepted(r);
    if (accepted.kind === 'created' && !paused) this.dispatcher.wake();
    return accepted;
  }

  // ---- maintenance (docs/rules.md#health-pause, docs/rules.md#retention)

  /** One health-sweep and retention pass at `now` (virtual-clock tests; the worker role runs it on a timer). */
  runMaintenance(now = this.clock.now()) {
    return this.maintenance.runOnce(now);
  }

  // ---- replays (docs/rules.md#replay)

  /** One attempt now for a failed or skipped delivery, same ids. */
  async replayDelivery(tenantId: string, deliveryId: string): Promise<ReplayRow> {
    const d = await this.store.getDelivery(tenantId, deliveryId);
    if (!d) throw fail('delivery_not_found');
    if (d.status !== 'failed' && d.status !== 'skipped') throw fail('delivery_not_replayable', { status: d.status });
    const ep = await this.getEndpoint(tenantId, d.endpointId);
    if (ep.status === 'paused') throw fail('endpoint_paused');
    const now = this.clock.now();
    const replay: ReplayRow = { id: newId('rpl', now), tenantId, endpointId: d.endpointId, kind: 'single', sinceMs: null, untilMs: null, includeSkipped: d.status === 'skipped', selected: 1, attempted: 0, succeeded: 0, failed: 0, createdAt: now };
    if (!(await this.store.scheduleSingleReplay(replay, deliveryId, now))) throw fail('delivery_not_replayable', { status: 'changed' });
    this.dispatcher.wake();
    return replay;
  }

  /**
   * Dismisses a failed delivery that holds its ordering key (on_failure `block`): it stays failed, and the key's later
   * deliveries go on (docs/rules.md#ordered-dismiss). 409 delivery_not_dismissable for any other delivery.
   */
  async dismissDelivery(tenantId: string, deliveryId: string): Promise<Delivery> {
    const d = await this.store.getDelivery(tenantId, deliveryId);
    if (!d) throw fail('delivery_not_found');
    const ep = await this.getEndpoint(tenantId, d.endpointId);
    const holds = d.status === 'failed' && d.orderingKey != null && d.dismissedAt == null && ep.orderingOnFailure === 'block';
    if (!holds) throw fail('delivery_not_dismissable', { status: d.dismissedAt != null ? 'dismissed' : d.orderingKey == null ? `${d.status} without an ordering key` : d.status === 'failed' ? 'failed on an endpoint with on_failure continue' : d.status });
    const now = this.clock.now();
    if (!(await this.store.dismissDelivery(tenantId, deliveryId, now))) throw fail('delivery_not_dismissable', { status: 'changed' });
    this.dispatcher.wake();
    return { ...d, dismissedAt: now, updatedAt: now };
  }

  /** Replays the endpoint's failed (and optionally skipped) deliveries attempted within [since, until]. */
  async replayWindow(tenantId: string, endpointId: string, opts: { since?: number; until?: number; includeSkipped?: boolean } = {}): Promise<ReplayRow> {
    const ep = await this.getEndpoint(tenantId, endpointId);
    if (ep.status === 'paused') throw fail('endpoint_paused');
    const now = this.clock.now();
    const until = opts.until ?? now;
    const since = opts.since ?? now - DEFAULTS.replay.windowMs;
    if (since > until) throw new HooklineError('invalid_request', { detail: 'since must not be after until' });
    const max = this.#o.replayQuotaPerDay ?? DEFAULTS.replay.quotaPerDay;
    const dayStart = now - (now % DAY_MS); // UTC midnight
    const replay: ReplayRow = { id: newId('rpl', now), tenantId, endpointId, kind: 'window', sinceMs: since, untilMs: until, includeSkipped: opts.includeSkipped === true, selected: 0, attempted: 0, succeeded: 0, failed: 0, createdAt: now };
    const result = await this.store.scheduleWindowReplay(replay, this.#o.replayMaxDeliveries ?? DEFAULTS.replay.maxDeliveries, now, { max, since: dayStart });
    if (result.kind === 'quota_exceeded') {
      throw new HooklineError('replay_quota_exceeded', { max }, { retryAfterSec: Math.ceil((dayStart + DAY_MS - now) / 1000) });
    }
    replay.selected = result.selected;
    if (replay.selected > 0) this.dispatcher.wake();
    return replay;
  }

  // ---- stats (what an operator watches: docs/scaling.md "What to watch")

  /** Deliveries not yet terminal over every tenant, and how long the oldest due one has waited. */
  async queueStats(): Promise<QueueStats> {
    const now = this.clock.now();
    const [queued, oldestDueAt] = await Promise.all([this.store.countQueued(), this.store.oldestDueAt(now)]);
    return { at: now, queued, oldestDueAgeMs: oldestDueAt === null ? null : now - oldestDueAt };
  }

  /** The tenant's queue per endpoint and each endpoint's success rate over deliveries that ended since `since` (default 24 h). */
  async tenantStats(tenantId: string, opts: { since?: number } = {}): Promise<TenantStats> {
    const now = this.clock.now();
    const since = opts.since ?? now - DAY_MS;
    if (since > now) throw new HooklineError('invalid_request', { detail: 'since must not be in the future' });
    const endpoints = (await this.store.endpointStats(tenantId, since, now)).map((e) => ({
      ...e,
      oldestDueAgeMs: e.oldestDueAt === null ? null : now - e.oldestDueAt,
      successRate: e.succeeded + e.failed === 0 ? null : e.succeeded / (e.succeeded + e.failed),
    }));
    const queued = { pending: 0, delivering: 0, held: 0 };
    for (const e of endpoints) for (const k of ['pending', 'delivering', 'held'] as const) queued[k] += e.queued[k];
    const ages = endpoints.map((e) => e.oldestDueAgeMs).filter((a): a is number => a !== null);
    return { at: now, since, queued, oldestDueAgeMs: ages.length === 0 ? null : Math.max(...ages), endpoints };
  }

  // ---- lifecycle

  start(): void {
    // Work committed by another process (PostgreSQL LISTEN/NOTIFY) wakes this dispatcher at once; only processes
    // that dispatch listen, so an API-only process holds no listening connection.
    this.#offDue ??= this.store.onDue?.(() => this.dispatcher.wake()) ?? null;
    this.dispatcher.start();
    if (this.#o.maintenance?.enabled !== false) this.maintenance.start();
  }

  async stop(): Promise<void> {
    this.#offDue?.();
    this.#offDue = null;
    await this.maintenance.stop();
    await this.dispatcher.stop();
    await this.sender.close?.();
  }
}

export interface QueueStats {
  at: number;
  queued: { pending: number; delivering: number; held: number };
  /** now − the oldest due pending delivery's next_attempt_at; null when nothing due waits. */
  oldestDueAgeMs: number | null;
}

export interface TenantStats extends QueueStats {
  since: number;
  endpoints: Array<EndpointStats & { oldestDueAgeMs: number | null; successRate: number | null }>;
}

export function createHookline(o: HooklineOptions): Hookline {
  return new Hookline(o);
}
