// The scheduler loop: claims due deliveries in leased batches into one lane per endpoint and starts each, within its
// endpoint's cap, through the attempt pipeline (sign, send, decide, record through one group commit). No timer per
// delivery: one loop reads due rows from the store.
import type { SendResult } from '../http/sender.ts';
import { newId } from '../ids.ts';
import type { ClaimedDelivery } from '../store/store.ts';
import { WakeSignal } from '../wake-signal.ts';
import { AttemptPipeline } from './attempt-pipeline.ts';
import { type DispatcherOptions, type ResolvedOptions, resolveOptions } from './dispatcher-options.ts';
import { EndpointThrottles } from './endpoint-throttles.ts';
import { type Lane, lookahead } from './lane.ts';
import type { DispatchObserver } from './observers.ts';

export type { DeliverySender, DispatcherOptions } from './dispatcher-options.ts';

/** How long an idle loop waits when due rows exist but none could be claimed. */
const IDLE_RECHECK_MS = 25;
/** How often an idle loop re-checks when due rows exist but all of them belong to this process's saturated lanes. */
const SATURATED_RECHECK_MS = 250;
/** How often a worker asks the store whether the endpoints it holds queued work for still exist. */
const GONE_CHECK_MS = 1000;

export class Dispatcher {
  readonly workerId: string;
  readonly #o: ResolvedOptions;
  readonly #observers: DispatchObserver[];
  readonly #pipeline: AttemptPipeline;
  readonly #throttles: EndpointThrottles;
  readonly #lanes = new Map<string, Lane>();
  #leased = 0;
  #running = false;
  #loop: Promise<void> | null = null;
  readonly #wakeSignal = new WakeSignal();
  #lastSweep = 0;
  #lastGoneCheck = 0;
  /** The endpoints the last claim skipped as saturated. */
  #skipped: string[] = [];
  /**
   * Set when a claim can find nothing more (docs/performance.md#dry-claims): until new work is signalled, one of these
   * lanes runs below its lookahead, or `until` passes, a claim would walk the same rows again and take none of them.
   */
  #dry: { saturated: string[]; until: number } | null = null;
  /** wake() was called (new work, not a lane running low) since the loop last looked. */
  #work = false;
  /** Endpoints and tenants deleted while this process held their work: nothing more of theirs is sent. */
  readonly #goneEndpoints = new Set<string>();
  readonly #goneTenants = new Set<string>();
  readonly #active = new Set<Promise<void>>();

  constructor(options: DispatcherOptions) {
    this.workerId = options.workerId ?? newId('msg').replace('msg_', 'wrk_');
    const o = (this.#o = resolveOptions(options));
    this.#observers = [...(options.observers ?? [])];
    this.#throttles = new EndpointThrottles({ ...o, observers: this.#observers, adaptive: o.adaptiveConcurrency });
    this.#pipeline = new AttemptPipeline(o, this.workerId, this.#observers, (c) => this.#isGone(c));
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
    this.#work = true;
    this.#wakeSignal.wake();
  }

  /** A lane runs low or process-wide room opened: worth a claim unless the last one found nothing to take. */
  #laneWake(): void {
    this.#wakeSignal.wake();
  }

  /**
   * Whether a claim now would walk the same rows as the last empty one and find nothing: no work signalled since, its
   * saturated lanes all still saturated, its recheck time not reached.
   */
  #stillDry(now: number): boolean {
    const dry = this.#dry;
    if (dry === null) return false;
    if (this.#work || now >= dry.until) {
      this.#dry = null;
      return false;
    }
    for (const id of dry.saturated) {
      const lane = this.#lanes.get(id);
      if (lane === undefined || lane.leased < lookahead(lane, this.#o.leaseFactor)) {
        this.#dry = null;
        return false;
      }
    }
    return true;
  }

  /** The endpoints whose lanes hold as many leases as they are worth ahead: a claim skips their rows. */
  #saturated(): string[] {
    const out: string[] = [];
    for (const [id, lane] of this.#lanes) if (lane.leased >= lookahead(lane, this.#o.leaseFactor)) out.push(id);
    return out;
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
      await this.#o.store.queue.releaseLeases(ids, this.workerId, this.#o.clock.now());
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
    this.#throttles.forget(endpointId);
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
    const existing = new Set(await this.#o.store.queue.existingEndpoints(queued));
    for (const id of queued) if (!existing.has(id)) this.forgetEndpoint(id);
  }

  async #run(): Promise<void> {
    if (this.#o.releaseLeasesOnStart) {
      try {
        const n = await this.#o.store.queue.releaseAllLeases(this.#o.clock.now());
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
          // Leases that lapsed (a stalled or dead worker's) are claimable again: new work for a dry loop.
          if ((await this.#o.store.queue.releaseExpiredLeases(now)) > 0) this.#work = true;
        }
        if (this.#stillDry(now)) {
          await this.#sleep(this.#dry!.until - now);
          continue;
        }
        this.#work = false;
        const room = this.#o.maxInFlight - this.#leased;
        const want = Math.min(room, this.#o.batchSize);
        const claimed = want > 0 ? await this.#claim(want) : 0;
        // A full claim: more may be due. Unless every lane is saturated now: the rows after this claim's are then the
        // saturated lanes' own (a claim walks past them all and takes nothing) or other endpoints' newer ones, which a
        // lane running low, new work or the re-check below claims.
        if (claimed > 0 && claimed >= want) {
          const saturated = this.#saturated();
          if (saturated.length < this.#lanes.size) {
            await new Promise((r) => setImmediate(r));
            continue;
          }
          this.#dry = { saturated, until: this.#o.clock.now() + Math.min(this.#o.pollMs, SATURATED_RECHECK_MS) };
          await this.#sleep(this.#dry.until - this.#o.clock.now());
          continue;
        }
        // Nothing more claimed while lanes of this process are saturated: the due rows are (at least mostly) theirs, a
        // claim walks past every one of them, and the lanes wake the loop themselves once they run low. Until then
        // only new work, such a lane, or a slow re-check (another endpoint's retry coming due), not a claim on every
        // wake that walks the same rows again.
        const delay =
          room <= 0
            ? this.#o.pollMs
            : this.#skipped.length > 0
              ? Math.min(this.#o.pollMs, SATURATED_RECHECK_MS)
              : // Due rows this claim could not take (endpoints at their cap, perhaps in other processes) must not make
                // the loop spin on the database: wait a little unless new work or a due notification wakes it first.
                Math.max(await this.#idleDelay(), claimed === 0 ? IDLE_RECHECK_MS : 0);
        if (room > 0) this.#dry = { saturated: this.#skipped, until: this.#o.clock.now() + delay };
        await this.#sleep(delay);
      } catch (err) {
        this.#o.logger.log('error', 'dispatcher loop error', { error: (err as Error).message });
        await this.#sleep(Math.min(this.#o.pollMs, 500));
      }
    }
  }

  async #idleDelay(): Promise<number> {
    const next = await this.#o.store.queue.nextDueAt();
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
    const saturated = this.#saturated();
    this.#skipped = saturated;
    const claimed = await this.#o.store.queue.claimDue({
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
      lane.cap = this.#throttles.capOf(c);
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
          (lane.queue.length < lookahead(lane, this.#o.leaseFactor) / 2 &&
            this.#o.maxInFlight - this.#leased >= this.#o.batchSize / 4)
        )
          this.#laneWake();
      };
      const sent = (ms: number) => void (lane.sendMs = lane.sendMs * 0.9 + ms * 0.1);
      const seq = this.#throttles.nextSeq(c);
      const windowFull = lane.sending >= lane.cap;
      // One send's response, as the endpoint's adaptive concurrency hears it: a window that grew starts more now.
      const feedback = (result: SendResult, ms: number) => {
        if (this.#throttles.adapt(lane, c, seq, windowFull, result, ms)) this.#pump(lane, endpointId);
      };
      const p = this.#pipeline
        .process(c, claimedAt, freeSlot, sent, feedback)
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
          // Its record (or hold, or failure) has ended its lease: the key's next delivery is claimable now.
          if (c.delivery.orderingKey != null) this.wake();
          // Process-wide room for a full claim again: the loop may be waiting for it. Only on the way down through the
          // threshold, not on every completion below it: a wake the lanes did not ask for (freeSlot wakes the loop when
          // a lane runs low) is a claim that finds nothing but the saturated lanes' rows (docs/performance.md).
          if (this.#leased === this.#o.maxInFlight - this.#o.batchSize - 1) this.#laneWake();
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
}
