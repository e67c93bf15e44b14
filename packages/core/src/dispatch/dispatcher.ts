// The scheduler loop: claims due deliveries in leased batches, signs and sends them, decides the next step and
// records attempts through one group commit. No timer per delivery: one loop reads due rows from the store.
import type { Clock } from '../clock.ts';
import { DEFAULTS } from '../defaults.ts';
import type { AttemptTrigger } from '../domain.ts';
import { GroupCommit } from '../group-commit.ts';
import { recordedHeaders, withCustomHeaders } from '../http/custom-headers.ts';
import type { SendResult } from '../http/sender.ts';
import { newId } from '../ids.ts';
import type { Logger } from '../logger.ts';
import {
  type ConcurrencyState,
  effectiveConcurrency,
  initialConcurrency,
  nextConcurrency,
} from '../pacing/adaptive-concurrency.ts';
import type { PolicyRegistry } from '../policy/registry.ts';
import type { Policy } from '../policy/types.ts';
import { signHeaders } from '../signing/sign-headers.ts';
import type {
  AttemptRecord,
  ClaimedDelivery,
  DeliveryQueueStore,
  HealthTransition,
  StoreLifecycle,
} from '../store/store.ts';
import { WakeSignal } from '../wake-signal.ts';
import { type AdmissionGate, admitWithAgeLimit, openGate } from './admission.ts';
import { attemptFromResult } from './attempt-from-result.ts';
import { nextState } from './next-state.ts';
import type { DispatchObserver } from './observers.ts';
import type { SecretCache } from './secret-cache.ts';

/** What the dispatcher needs from an HTTP client; `simulatedDurationMs` lets a scripted sender spend virtual time. */
export interface DeliverySender {
  send(request: {
    url: string;
    headers: Record<string, string>;
    body: Buffer;
    timeoutMs: number;
    /** The endpoint and its cap: the HTTP client keeps a pool per endpoint sized to it. */
    endpointId?: string;
    maxConcurrency?: number;
  }): Promise<SendResult & { simulatedDurationMs?: number }>;
}

export interface DispatcherOptions {
  /** The delivery queue part of the store, and its ping (is a refused batch the store's fault or a row's?). */
  store: DeliveryQueueStore & Pick<StoreLifecycle, 'ping'>;
  clock: Clock;
  sender: DeliverySender;
  policies: PolicyRegistry;
  secrets: SecretCache;
  logger: Logger;
  gate?: AdmissionGate;
  observers?: DispatchObserver[];
  workerId?: string;
  /** Deliveries claimed per statement. */
  batchSize?: number;
  /** Deliveries this process holds leased at once, queued or sending (sends per endpoint stay within its cap). */
  maxInFlight?: number;
  /**
   * How many times its concurrency cap an endpoint may have leased at once. Above 1, a worker keeps the next sends
   * queued so a freed slot refills without waiting for a commit and a claim (caps still hold within a process);
   * 1 makes caps exact across several processes sharing one database.
   */
  leaseFactor?: number;
  /** How long a claim is held before the sweeper hands it to another worker; must outlive the longest send (60 s) and its commit. */
  leaseMs?: number;
  /** Longest sleep when nothing is due and nobody wakes the loop. */
  pollMs?: number;
  /** How often expired leases are handed back. */
  sweepMs?: number;
  random?: () => number;
  /** Log one JSON line per attempt (docs/rules.md#attempt-log). */
  logAttempts?: boolean;
  /**
   * Hand back every lease on the store when starting (default: when the store has one worker process, SQLite):
   * they are all a killed predecessor's, so its deliveries are sent again at once instead of after the lease.
   */
  releaseLeasesOnStart?: boolean;
  /**
   * Adapt each endpoint's concurrency to its pushback (docs/rules.md#adaptive-concurrency), within 1 … max_concurrency
   * (default true). Off: every endpoint is sent its max_concurrency at once.
   */
  adaptiveConcurrency?: boolean;
}

const MAX_TIMEOUT_MS = 60_000;
/** The terminal reason of a delivery still in progress when its endpoint paused (docs/rules.md#paused-endpoint): replayable as `failed`. */
export const ENDPOINT_PAUSED = 'endpoint_paused';
/** How long an idle loop waits when due rows exist but none could be claimed. */
const IDLE_RECHECK_MS = 25;
/** How often an idle loop re-checks when due rows exist but all of them belong to this process's saturated lanes. */
const SATURATED_RECHECK_MS = 250;
/** Endpoints answering within this (moving average) are leased `leaseFactor` times their cap ahead. */
const FAST_SEND_MS = 250;
/** Tries for one group commit of attempts before its callers see the error. */
const COMMIT_TRIES = 6;
/** How often a worker asks the store whether the endpoints it holds queued work for still exist. */
const GONE_CHECK_MS = 1000;

type ResolvedOptions = Required<Omit<DispatcherOptions, 'workerId' | 'gate' | 'observers' | 'random'>> & {
  gate: AdmissionGate;
  random: () => number;
};

/** One endpoint's work in this process: leased deliveries waiting for a send slot, and the slots in use. */
interface Lane {
  cap: number;
  /** Moving average of this endpoint's send durations (ms): how far ahead it is worth leasing. */
  sendMs: number;
  sending: number;
  leased: number;
  queue: Array<{ c: ClaimedDelivery; claimedAt: number }>;
}

/** One send's response, as the endpoint's adaptive concurrency hears it. */
type Feedback = (result: SendResult, durationMs: number) => void;

export class Dispatcher {
  readonly workerId: string;
  readonly #o: ResolvedOptions;
  readonly #observers: DispatchObserver[];
  readonly #records: GroupCommit<AttemptRecord, HealthTransition[]>;
  readonly #holds: GroupCommit<{ id: string; until: number }, undefined>;
  readonly #lanes = new Map<string, Lane>();
  #leased = 0;
  #running = false;
  #loop: Promise<void> | null = null;
  readonly #wakeSignal = new WakeSignal();
  #lastSweep = 0;
  #lastGoneCheck = 0;
  /** Saturated lanes the last claim skipped. */
  #skippedLanes = 0;
  /** Endpoints and tenants deleted while this process held their work: nothing more of theirs is sent. */
  readonly #goneEndpoints = new Set<string>();
  readonly #goneTenants = new Set<string>();
  readonly #active = new Set<Promise<void>>();
  /** Per endpoint: its adaptive concurrency (kept while its lane comes and goes) and its sends numbered. */
  readonly #throttles = new Map<string, { state: ConcurrencyState; seq: number }>();
  /** Learned values waiting to be written (one write at a time per process; the latest value wins). */
  readonly #learned = new Map<string, number | null>();
  #writingLearned = false;

  constructor(options: DispatcherOptions) {
    this.workerId = options.workerId ?? newId('msg').replace('msg_', 'wrk_');
    this.#o = {
      ...DEFAULTS.dispatcher,
      leaseFactor: 1,
      logAttempts: true,
      releaseLeasesOnStart: !options.store.capsAcrossWorkers,
      adaptiveConcurrency: true,
      ...options,
      gate: options.gate ?? openGate,
      random: options.random ?? Math.random,
    } as ResolvedOptions;
    this.#observers = [...(options.observers ?? [])];
    // Records linger up to 4 ms for company, one commit at a time: what arrives meanwhile makes the next batch larger
    // (fewer pages rewritten per attempt). A success's send slot is already free, so only its lease waits.
    this.#records = new GroupCommit((records) => this.#commit(records), 1000, 4, 128, 1);
    this.#holds = new GroupCommit((holds) => this.#commitHolds(holds), 1000);
  }

  addObserver(o: DispatchObserver): void {
    this.#observers.push(o);
  }

  /** Everyone listening, for transitions made outside an attempt (test deliveries, breaker, health sweep). */
  get observers(): readonly DispatchObserver[] {
    return this.#observers;
  }

  /** Deliveries leased by this process and not yet recorded. */
  get inFlight(): number {
    return this.#leased;
  }

  /** New work may be due: claim at once instead of waiting for the next poll. */
  wake(): void {
    this.#wakeSignal.wake();
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /**
   * Stops claiming, hands back what is leased but not yet started (due again at once for any worker, instead of
   * after its lease), and lets the sends in flight finish and commit. A stop therefore takes at most one send's
   * timeout, however long the queues were.
   */
  async stop(): Promise<void> {
    this.#running = false;
    this.wake();
    await this.#loop;
    await this.#releaseQueued();
    await this.#settleActive();
  }

  async #releaseQueued(): Promise<void> {
    const ids: string[] = [];
    for (const lane of this.#lanes.values()) {
      for (const q of lane.queue) ids.push(q.c.delivery.id);
      lane.leased -= lane.queue.length;
      this.#leased -= lane.queue.length;
      lane.queue.length = 0;
    }
    if (ids.length === 0) return;
    try {
      await this.#o.store.releaseLeases(ids, this.workerId, this.#o.clock.now());
    } catch (err) {
      // Nothing is lost: the leases lapse and the sweeper hands the rows back then.
      this.#o.logger.log('warn', 'handing back unstarted leases failed; they return when their lease expires', {
        error: (err as Error).message,
        deliveries: ids.length,
      });
    }
  }

  async #settleActive(): Promise<void> {
    while (this.#active.size > 0) await Promise.allSettled([...this.#active]);
  }

  /**
   * An endpoint (or every endpoint of a tenant) was deleted: its queued deliveries are dropped (their rows went with
   * it) and none of its sends starts from now on; only those already on the wire finish, and their records find
   * nothing to update.
   */
  forgetEndpoint(endpointId: string): void {
    this.#goneEndpoints.add(endpointId);
    this.#throttles.delete(endpointId);
    const lane = this.#lanes.get(endpointId);
    if (lane) this.#dropQueue(lane, endpointId);
  }

  forgetTenant(tenantId: string): void {
    this.#goneTenants.add(tenantId);
    for (const [id, lane] of this.#lanes)
      if (lane.queue[0]?.c.endpoint.tenantId === tenantId) this.#dropQueue(lane, id);
  }

  #isGone(c: ClaimedDelivery): boolean {
    return this.#goneEndpoints.has(c.endpoint.id) || this.#goneTenants.has(c.endpoint.tenantId);
  }

  #dropQueue(lane: Lane, endpointId: string): void {
    const n = lane.queue.length;
    lane.queue.length = 0;
    lane.leased -= n;
    this.#leased -= n;
    if (lane.leased === 0 && lane.sending === 0 && this.#lanes.get(endpointId) === lane) this.#lanes.delete(endpointId);
  }

  /** Another process may have deleted endpoints this one holds queued work for: drop theirs (at most once a second). */
  async #dropDeletedEndpoints(now: number): Promise<void> {
    if (now - this.#lastGoneCheck < GONE_CHECK_MS) return;
    this.#lastGoneCheck = now;
    const queued = [...this.#lanes].filter(([, lane]) => lane.queue.length > 0).map(([id]) => id);
    if (queued.length === 0) return;
    const existing = new Set(await this.#o.store.existingEndpoints(queued));
    for (const id of queued) if (!existing.has(id)) this.forgetEndpoint(id);
  }

  async #run(): Promise<void> {
    if (this.#o.releaseLeasesOnStart) {
      try {
        const n = await this.#o.store.releaseAllLeases(this.#o.clock.now());
        if (n > 0) this.#o.logger.log('info', 'handed back the leases a previous worker held', { deliveries: n });
      } catch (err) {
        // Nothing is lost: the sweeper hands them back when their leases expire.
        this.#o.logger.log('warn', 'handing back orphaned leases failed; they return when their lease expires', {
          error: (err as Error).message,
        });
      }
    }
    while (this.#running) {
      try {
        const now = this.#o.clock.now();
        if (now - this.#lastSweep >= this.#o.sweepMs) {
          this.#lastSweep = now;
          await this.#o.store.releaseExpiredLeases(now);
        }
        const room = this.#o.maxInFlight - this.#leased;
        const want = Math.min(room, this.#o.batchSize);
        const claimed = want > 0 ? await this.#claim(want) : 0;
        if (claimed > 0 && claimed >= want) {
          await new Promise((r) => setImmediate(r));
          continue;
        }
        // Nothing claimed while lanes of this process are saturated: the due rows are (at least mostly) theirs, a
        // claim walks past every one of them, and the lanes wake the loop themselves once they run low. Until then
        // only a wake (new work, a lane running low) or a slow re-check (another endpoint's retry coming due), not one
        // every few ms that walks the same rows again.
        if (claimed === 0 && room > 0 && this.#skippedLanes > 0) {
          await this.#sleep(Math.min(this.#o.pollMs, SATURATED_RECHECK_MS));
          continue;
        }
        // Due rows this claim could not take (endpoints at their cap, perhaps in other processes) must not make the
        // loop spin on the database: wait a little unless a commit or a due notification wakes it first.
        await this.#sleep(
          room > 0 ? Math.max(await this.#idleDelay(), claimed === 0 ? IDLE_RECHECK_MS : 0) : this.#o.pollMs,
        );
      } catch (err) {
        this.#o.logger.log('error', 'dispatcher loop error', { error: (err as Error).message });
        await this.#sleep(Math.min(this.#o.pollMs, 500));
      }
    }
  }

  async #idleDelay(): Promise<number> {
    const next = await this.#o.store.nextDueAt();
    if (next === null) return this.#o.pollMs;
    return Math.max(0, Math.min(this.#o.pollMs, next - this.#o.clock.now()));
  }

  #sleep(ms: number): Promise<void> {
    return this.#wakeSignal.sleep(ms, !this.#running);
  }

  /** Leases up to `limit` due deliveries into their endpoints' lanes and starts what the caps allow. */
  async #claim(limit: number): Promise<number> {
    await this.#dropDeletedEndpoints(this.#o.clock.now());
    const now = this.#o.clock.now();
    const saturated: string[] = [];
    for (const [id, lane] of this.#lanes) if (lane.leased >= this.#lookahead(lane)) saturated.push(id);
    this.#skippedLanes = saturated.length;
    const claimed = await this.#o.store.claimDue({
      now,
      limit,
      leaseUntil: now + this.#o.leaseMs,
      workerId: this.workerId,
      saturatedEndpoints: saturated,
      leaseFactor: this.#o.leaseFactor,
    });
    const touched = new Map<string, Lane>();
    const claimedAt = this.#o.clock.now();
    for (const c of claimed) {
      if (this.#isGone(c)) continue; // claimed just before its endpoint's deletion committed
      let lane = this.#lanes.get(c.endpoint.id);
      if (!lane) {
        lane = { cap: c.endpoint.maxConcurrency, sendMs: 0, sending: 0, leased: 0, queue: [] };
        this.#lanes.set(c.endpoint.id, lane);
      }
      lane.cap = this.#capOf(c);
      lane.leased++;
      this.#leased++;
      lane.queue.push({ c, claimedAt });
      touched.set(c.endpoint.id, lane);
    }
    for (const [id, lane] of touched) this.#pump(lane, id);
    return claimed.length;
  }

  /** Starts queued deliveries while the endpoint has free send slots. */
  #pump(lane: Lane, endpointId: string): void {
    while (lane.sending < lane.cap && lane.queue.length > 0) {
      const { c, claimedAt } = lane.queue.shift()!;
      lane.sending++;
      let slotFree = false;
      // The slot (and the lane's share of leases) is free once the send is done with, which for a success is at its
      // response: its record's commit then only holds the process-wide in-flight count, so a fast endpoint keeps
      // being claimed for while earlier records wait for their group commit.
      const freeSlot = () => {
        if (slotFree) return;
        slotFree = true;
        lane.sending--;
        lane.leased--;
        this.#pump(lane, endpointId);
        if (lane.leased === 0 && lane.sending === 0 && lane.queue.length === 0 && this.#lanes.get(endpointId) === lane)
          this.#lanes.delete(endpointId);
        // Claim again when this lane is about to run dry, or (for a fast endpoint) when it is half empty and a
        // claim can take a worthwhile number of rows: claims have a fixed cost, so fewer, larger ones.
        if (
          lane.queue.length < lane.cap ||
          (lane.queue.length < this.#lookahead(lane) / 2 && this.#o.maxInFlight - this.#leased >= this.#o.batchSize / 4)
        )
          this.wake();
      };
      const sent = (ms: number) => void (lane.sendMs = lane.sendMs * 0.9 + ms * 0.1);
      const seq = this.#throttleOf(c).seq++;
      const windowFull = lane.sending >= lane.cap;
      const feedback: Feedback = (result, ms) => this.#adapt(lane, endpointId, c, seq, windowFull, result, ms);
      const p = this.#process(c, claimedAt, freeSlot, sent, feedback)
        .catch((err) =>
          this.#o.logger.log('error', 'delivery processing failed', {
            delivery_id: c.delivery.id,
            error: (err as Error).message,
          }),
        )
        .finally(() => {
          freeSlot();
          this.#leased--;
          this.#active.delete(p);
          // Process-wide room for a full claim again: the loop may be waiting for it. Only on the way down through the
          // threshold, not on every completion below it: a wake the lanes did not ask for (freeSlot wakes the loop when
          // a lane runs low) is a claim that finds nothing but the saturated lanes' rows (docs/performance.md).
          if (this.#leased === this.#o.maxInFlight - this.#o.batchSize - 1) this.wake();
        });
      this.#active.add(p);
    }
  }

  /**
   * Virtual-clock driving (tests, `hookline simulate`): claims and finishes everything due at the clock's current
   * time, repeating until nothing more is due now. Real time never passes inside it.
   */
  async runDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.#claim(this.#o.batchSize);
      await this.#settleActive();
      total += n;
      if (n === 0) return total;
    }
  }

  async #commitHolds(holds: Array<{ id: string; until: number }>): Promise<undefined[]> {
    const byUntil = new Map<number, string[]>();
    for (const h of holds) byUntil.set(h.until, [...(byUntil.get(h.until) ?? []), h.id]);
    const now = this.#o.clock.now();
    for (const [until, ids] of byUntil) await this.#o.store.holdDeliveries(ids, this.workerId, until, now);
    return holds.map(() => undefined);
  }

  #policyFor(c: ClaimedDelivery): Policy {
    return this.#o.policies.get(c.endpoint.policy) ?? this.#o.policies.default();
  }

  /**
   * How many deliveries a lane may hold leased (queued + sending). A fast endpoint gets `leaseFactor` times its cap,
   * so its slots refill from the queue while the next claim is on its way; a slow one only its cap, so nothing
   * waits in its queue long enough for the lease to lapse.
   */
  #lookahead(lane: Lane): number {
    return lane.sendMs <= FAST_SEND_MS ? lane.cap * this.#o.leaseFactor : lane.cap;
  }

  #throttleOf(c: ClaimedDelivery): { state: ConcurrencyState; seq: number } {
    let t = this.#throttles.get(c.endpoint.id);
    if (!t)
      this.#throttles.set(
        c.endpoint.id,
        (t = { state: initialConcurrency(c.endpoint.maxConcurrency, c.endpoint.effectiveConcurrency ?? null), seq: 0 }),
      );
    return t;
  }

  /** The endpoint's send slots in this process: its learned concurrency, or its cap when adapting is off. */
  #capOf(c: ClaimedDelivery): number {
    if (!this.#o.adaptiveConcurrency) return c.endpoint.maxConcurrency;
    return effectiveConcurrency(this.#throttleOf(c).state, c.endpoint.maxConcurrency);
  }

  /** Feeds one response to the endpoint's adaptive concurrency; a change resizes its lane, is announced and saved. */
  #adapt(
    lane: Lane,
    endpointId: string,
    c: ClaimedDelivery,
    seq: number,
    windowFull: boolean,
    result: SendResult,
    durationMs: number,
  ): void {
    if (!this.#o.adaptiveConcurrency) return;
    const t = this.#throttleOf(c);
    const max = c.endpoint.maxConcurrency;
    const before = effectiveConcurrency(t.state, max);
    t.state = nextConcurrency(
      t.state,
      { seq, status: result.status, success: result.outcome === 'success', durationMs, windowFull },
      max,
      t.seq,
    );
    const after = effectiveConcurrency(t.state, max);
    if (after === before) return;
    lane.cap = after;
    for (const ob of this.#observers)
      ob.concurrency?.({ endpointId, tenantId: c.endpoint.tenantId, effective: after, max, at: this.#o.clock.now() });
    this.#saveLearned(endpointId, after === max ? null : after);
    if (after > before) this.#pump(lane, endpointId);
  }

  /**
   * Writes learned values in the background: the API shows them and a restarted worker starts from them. Losing one
   * only means starting from an older value, which adapts again within a few responses.
   */
  #saveLearned(endpointId: string, value: number | null): void {
    this.#learned.set(endpointId, value);
    if (this.#writingLearned) return;
    this.#writingLearned = true;
    void (async () => {
      try {
        while (this.#learned.size > 0) {
          const [id, v] = this.#learned.entries().next().value as [string, number | null];
          this.#learned.delete(id);
          await this.#o.store.setEffectiveConcurrency(id, v).catch((err) =>
            this.#o.logger.log('warn', "saving an endpoint's learned concurrency failed", {
              endpoint_id: id,
              error: (err as Error).message,
            }),
          );
        }
      } finally {
        this.#writingLearned = false;
      }
    })();
  }

  async #process(
    c: ClaimedDelivery,
    claimedAt: number,
    freeSlot: () => void,
    sent: (ms: number) => void,
    feedback: Feedback,
  ): Promise<void> {
    const o = this.#o;
    const policy = this.#policyFor(c);
    const now = o.clock.now();
    const isReplay = c.replayId !== null;
    const timeoutMs = Math.min(c.endpoint.timeoutMs ?? policy.timeoutMs, MAX_TIMEOUT_MS);

    // Queued so long behind a slow endpoint that the lease could now lapse mid-send (though it was long enough when
    // claimed) and another worker take the row: leave it; the sweeper hands it back and it is claimed afresh.
    const lease = c.delivery.leaseUntil;
    if (lease !== null && claimedAt + timeoutMs <= lease && now + timeoutMs > lease) return;

    // A delivery still in progress when its endpoint paused (manually, by health, or on a 410) failed before the
    // pause: `failed`, never `skipped`, so the default window replay after reactivation recovers it (docs/rules.md#paused-endpoint).
    // Only events that arrive while paused are `skipped`, and those are never claimed. A paused endpoint is not
    // attempted, replays included: one scheduled before the pause ends the same way, counted failed by its replay.
    if (c.endpoint.status === 'paused') {
      await o.store.endDeliveries([c.delivery.id], this.workerId, 'failed', ENDPOINT_PAUSED, now);
      for (const ob of this.#observers) ob.ended?.(c, 'failed', ENDPOINT_PAUSED);
      return;
    }
    let probe = false;
    if (!isReplay) {
      const admission = await admitWithAgeLimit(o.gate, c, policy, now);
      if (admission.kind === 'hold') {
        await this.#holds.submit({ id: c.delivery.id, until: admission.until });
        for (const ob of this.#observers) ob.held?.(c, admission.until);
        return;
      }
      if (admission.kind === 'fail') {
        await o.store.endDeliveries([c.delivery.id], this.workerId, 'failed', admission.reason, now);
        for (const ob of this.#observers) ob.ended?.(c, 'failed', admission.reason);
        return;
      }
      probe = admission.probe;
    }

    const secrets = await o.secrets.live(c.endpoint.id, c.endpoint.version, now);
    // Custom headers go beneath the signed ones: they can never replace one (docs/rules.md#custom-headers).
    const headers = withCustomHeaders(
      c.endpoint.customHeaders,
      signHeaders({
        scheme: c.endpoint.scheme,
        eventId: c.delivery.eventId,
        deliveryId: c.delivery.id,
        timestampSec: Math.floor(now / 1000),
        body: c.body,
        secrets,
      }),
    );
    // Deleted while this delivery waited for its send (admission, secrets): it is not sent.
    if (this.#isGone(c)) return;
    const startedAt = now;
    const result = await o.sender.send({
      url: c.endpoint.url,
      headers,
      body: c.body,
      timeoutMs,
      endpointId: c.endpoint.id,
      maxConcurrency: c.endpoint.maxConcurrency,
    });
    // A success frees its slot at once: the healthy path never waits on a commit. A failure keeps it until the
    // breaker and health have seen the record, so a failing endpoint is not flooded while its verdict is pending.
    if (result.outcome === 'success') freeSlot();
    const endedAt =
      result.simulatedDurationMs !== undefined
        ? startedAt + result.simulatedDurationMs
        : Math.max(o.clock.now(), startedAt);
    sent(endedAt - startedAt);
    feedback(result, endedAt - startedAt);
    const trigger: AttemptTrigger = isReplay ? 'replay' : probe ? 'probe' : 'scheduled';

    const attempt = attemptFromResult(
      {
        deliveryId: c.delivery.id,
        tenantId: c.delivery.tenantId,
        environment: c.environment,
        endpointId: c.endpoint.id,
        n: c.delivery.attemptCount + 1,
        trigger,
        // The ladder this attempt was scheduled on (nextState may move the delivery to another for the next one).
        ladder: c.delivery.ladder,
        startedAt,
        requestHeaders: recordedHeaders(c.endpoint.customHeaders, headers),
      },
      result,
    );

    const d = c.delivery;
    const { next, progress } = nextState(policy, d, result, startedAt, endedAt, isReplay, o.random);

    const record: AttemptRecord = {
      attempt,
      workerId: this.workerId,
      next,
      progress,
      replayId: c.replayId,
      previousAttemptAt: d.lastAttemptAt,
      // Failed replays and tests leave health alone; any success clears it (docs/rules.md#health-clear).
      health: {
        rule: policy.health,
        countsFailure: trigger === 'scheduled' || trigger === 'probe',
        countsSuccess: true,
      },
      breakerScope: isReplay ? null : o.gate.scopeKey(c, policy),
      ...(d.orderingKey != null ? { ordering: { endpointId: c.endpoint.id, key: d.orderingKey } } : {}),
    };
    const transitions = await this.#records.submit(record);
    await o.gate.afterAttempt(c, policy, attempt, probe, o.clock.now());

    if (o.logAttempts) {
      o.logger.log('info', 'attempt', {
        event_id: d.eventId,
        delivery_id: d.id,
        attempt: attempt.n,
        endpoint_id: c.endpoint.id,
        tenant_id: d.tenantId,
        environment: c.environment,
        trigger,
        status: result.status,
        outcome: result.outcome,
        error_class: result.errorClass,
        duration_ms: attempt.durationMs,
        next: next.status,
      });
    }
    for (const ob of this.#observers) {
      ob.attempt?.({ attempt, claimed: c, next, probe });
      for (const t of transitions) ob.health?.(t);
    }
  }

  async #commit(records: AttemptRecord[]): Promise<Array<HealthTransition[] | Error>> {
    const out: Array<HealthTransition[] | Error> = records.map(() => []);
    await this.#commitPart(records, 0, out);
    return out;
  }

  /**
   * Records `records` (slots `offset…` of `out`). A batch the store refuses while it is up (it answers a ping) holds a
   * row it cannot take: the batch is split in halves until that row is alone, so it fails only its own caller, never
   * the rest of the batch. A store that is down gets the retries of #recordWithRetry instead.
   */
  async #commitPart(records: AttemptRecord[], offset: number, out: Array<HealthTransition[] | Error>): Promise<void> {
    let transitions: HealthTransition[];
    try {
      transitions = await this.#recordWithRetry(records, records.length > 1);
    } catch (err) {
      if (records.length === 1) {
        const cause = err instanceof RefusedBatch ? err.cause : err;
        this.#o.logger.log(
          'error',
          'an attempt record was refused; its delivery is sent again when its lease expires',
          { delivery_id: records[0].attempt.deliveryId, error: (cause as Error).message },
        );
        out[offset] = cause instanceof Error ? cause : new Error(String(cause));
        return;
      }
      if (!(err instanceof RefusedBatch)) {
        for (let i = 0; i < records.length; i++) out[offset + i] = err instanceof Error ? err : new Error(String(err));
        return;
      }
      const half = Math.ceil(records.length / 2);
      await this.#commitPart(records.slice(0, half), offset, out);
      await this.#commitPart(records.slice(half), offset + half, out);
      return;
    }
    // Transitions are per batch; hand each to the record of its endpoint once.
    for (const t of transitions) {
      const i = records.findIndex((r) => r.attempt.endpointId === t.endpointId);
      if (i >= 0) (out[offset + i] as HealthTransition[]).push(t);
    }
  }

  /**
   * The attempts happened; losing their record would re-send them after the lease. A store that is briefly away
   * (database restart, connections cut) gets a few tries with backoff (~6 s in all) before the callers see the error.
   */
  async #recordWithRetry(records: AttemptRecord[], splittable: boolean): Promise<HealthTransition[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        // Safe to repeat: the store's record is idempotent (a commit whose outcome was lost may have landed).
        return await this.#o.store.recordAttempts(records, this.#o.clock.now());
      } catch (err) {
        // Up, yet refusing: a row it cannot take (a single record gets one more try, in case that was a blip).
        if ((splittable || attempt >= 2) && (await this.#o.store.ping().catch(() => false)))
          throw new RefusedBatch(err);
        if (attempt >= COMMIT_TRIES) throw err;
        this.#o.logger.log('warn', 'recording attempts failed, retrying', {
          error: (err as Error).message,
          attempt,
          records: records.length,
        });
        await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
      }
    }
  }
}

/** The store is up but refused a batch of records: one of its rows cannot be written. */
class RefusedBatch extends Error {
  constructor(cause: unknown) {
    super(`the store refused the batch: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}
