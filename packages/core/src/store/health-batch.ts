// Endpoint health across one commit of attempts: read each endpoint once, apply every attempt, write what changed.

import { DEFAULTS } from '../defaults.ts';
import type { Attempt, Endpoint } from '../domain.ts';
import { type HealthChange, healthAfterAttempt } from '../health.ts';
import { endpointFromRow } from './catalog/endpoint-rows.ts';
import { writeHealthNotice } from './endpoint-incidents.ts';
import type { SqlExecutor } from './sql-driver.ts';
import type { AttemptRecord, HealthTransition } from './store.ts';

type Health = NonNullable<AttemptRecord['health']>;

/**
 * Endpoint health across one commit: each endpoint is read once, every attempt of the batch is applied in order
 * (the shared pure decision in health.ts), and only endpoints whose state changed are written, once, with the
 * notifications of their transitions (docs/rules.md#notifications), decided per incident, in the same transaction.
 *
 * Where several processes commit attempts of the same endpoints (PostgreSQL, `lockToWrite`), only an endpoint this
 * commit will change is row-locked (and read again under the lock). A success on an endpoint that is already clean
 * changes nothing, so the commits of a healthy drain take no endpoint row lock at all: they no longer queue on each
 * other's COMMIT. Skipping the lock is safe because such a commit writes nothing the other commits read: it is as if
 * it had run just before any concurrent commit that does change the endpoint.
 */
export class HealthBatch {
  readonly #endpoints = new Map<string, { ep: Endpoint; dirty: boolean; locked: boolean }>();
  /** The attempts `load` reads endpoints for, by endpoint, in the order they were expected. */
  readonly #expected = new Map<string, Array<{ a: Attempt; h: Health; previousAttemptAt: number | null }>>();
  readonly #transitions: HealthTransition[] = [];
  /** Each transition's reopen window, from the attempt that made it (a recovery's notice waits it out). */
  readonly #windows: number[] = [];
  constructor(
    private readonly tx: SqlExecutor,
    private readonly now: number,
    private readonly lockToWrite = false,
  ) {}

  /** Notes an attempt the commit may apply: `load` reads its endpoint (and locks it if the attempt would change it). */
  expect(a: Attempt, h: Health, previousAttemptAt: number | null): void {
    let list = this.#expected.get(a.endpointId);
    if (!list) this.#expected.set(a.endpointId, (list = []));
    list.push({ a, h, previousAttemptAt });
  }

  /**
   * Reads every expected endpoint in one statement; with `lockToWrite`, those whose expected attempts would change
   * them are then read again locked (`FOR NO KEY UPDATE`), in the order they were expected (one lock order for
   * every process). An attempt that does not apply in the end (its lease was lost) only makes the lock unneeded.
   */
  async load(): Promise<void> {
    const ids = [...this.#expected.keys()].filter((id) => !this.#endpoints.has(id));
    if (ids.length === 0) return;
    const found = new Map<string, Endpoint>();
    for (const r of await this.tx.all('read-endpoints', { ids })) found.set(r.id, endpointFromRow(r));
    for (const id of ids) {
      let ep = found.get(id);
      if (!ep) continue; // deleted meanwhile: its attempts change nothing
      let locked = !this.lockToWrite;
      if (!locked && this.#wouldChange(ep, this.#expected.get(id)!)) {
        const [r] = await this.tx.all('get-endpoint-by-id', { id });
        if (!r) continue;
        ep = endpointFromRow(r);
        locked = true;
      }
      this.#endpoints.set(id, { ep, dirty: false, locked });
    }
  }

  /** Reads (and, on PostgreSQL, locks) an endpoint row once per batch. */
  async #loadLocked(endpointId: string): Promise<void> {
    if (this.#endpoints.has(endpointId)) return;
    const [r] = await this.tx.all('get-endpoint-by-id', { id: endpointId });
    if (r) this.#endpoints.set(endpointId, { ep: endpointFromRow(r), dirty: false, locked: true });
  }

  #wouldChange(ep: Endpoint, attempts: ReadonlyArray<{ a: Attempt; h: Health; previousAttemptAt: number | null }>) {
    // Each attempt that changes nothing leaves the state as it was, so every one is judged on `ep` as read.
    return attempts.some(({ a, h, previousAttemptAt }) => this.#decide(ep, a, h, previousAttemptAt).changed);
  }

  #decide(ep: Endpoint, a: Attempt, h: Health, previousAttemptAt: number | null): HealthChange {
    return healthAfterAttempt(ep, {
      rule: h.rule,
      success: a.outcome === 'success' && h.countsSuccess,
      failure: a.outcome !== 'success' && h.countsFailure,
      // brief counts failed events, not attempts: a delivery counts again only if it was last tried before the last success.
      // With no success ever, only a delivery's first failure counts (else every retry would count as an event).
      newFailedEvent:
        previousAttemptAt === null || (ep.lastSuccessAt !== null && previousAttemptAt <= ep.lastSuccessAt),
      responseStatus: a.responseStatus,
      now: a.startedAt + a.durationMs,
    });
  }

  async apply(a: Attempt, h: Health, previousAttemptAt: number | null): Promise<void> {
    await this.#loadLocked(a.endpointId);
    const entry = this.#endpoints.get(a.endpointId);
    if (!entry) return;
    const ep = entry.ep;
    const change = this.#decide(ep, a, h, previousAttemptAt);
    if (!change.changed) return;
    // load() locked every endpoint an expected attempt could change; an unexpected one was read locked above.
    if (!entry.locked) throw new Error(`endpoint ${ep.id}: a health change without its row lock`);
    Object.assign(ep, change.state);
    entry.dirty = true;
    if (change.transition) {
      this.#transitions.push({ tenantId: ep.tenantId, endpointId: ep.id, ...change.transition, at: this.now });
      this.#windows.push(h.reopenWindowMs ?? DEFAULTS.notifications.reopenWindowMs);
    }
  }

  async flush(): Promise<HealthTransition[]> {
    for (const { ep, dirty } of this.#endpoints.values()) {
      if (!dirty) continue;
      await this.tx.run('update-endpoint-health', {
        id: ep.id,
        status: ep.status,
        pause_reason: ep.pauseReason,
        failing_since: ep.failingSince,
        consecutive_failed_events: ep.consecutiveFailedEvents,
        last_success_at: ep.lastSuccessAt,
        now: this.now,
      });
    }
    // In order: a recovery and a failure in one batch are a reopened incident, as in two.
    for (const [i, t] of this.#transitions.entries()) {
      await writeHealthNotice(this.tx, t, this.#endpoints.get(t.endpointId)?.ep ?? null, this.#windows[i]);
    }
    return this.#transitions;
  }
}
