// The circuit breaker as the dispatcher's admission gate (docs/rules.md#breaker-hold): state in the store, decisions in breaker-rules.ts.
import type { AuditDraft } from '../audit/audit-types.ts';
import type { Clock } from '../clock.ts';
import { DEFAULTS } from '../defaults.ts';
import type { Admission, AdmissionGate } from '../dispatch/admission.ts';
import type { Attempt, BreakerTransition } from '../domain.ts';
import { fail } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { breakerEntry } from '../outbox/outbox-entries.ts';
import type { BreakerRule, Policy } from '../policy/types.ts';
import type { BreakerRow, ClaimedDelivery, Store } from '../store/store.ts';
import * as rules from './breaker-rules.ts';
import { Coalescer } from './coalesce.ts';

export interface BreakerOptions {
  store: Pick<Store, 'breakers' | 'catalog' | 'audit'>;
  clock: Clock;
  logger: Logger;
  /** Every transition, as it is committed (the engine hands them to dispatcher observers). */
  onTransition?: (t: BreakerTransition) => void;
  /** Held deliveries became due (probe success, reset): the engine wakes its dispatcher. */
  onRelease?: () => void;
  /** How long a closed row read from the store serves admissions in this process (wall-clock ms). */
  cacheMs?: number;
  /** A probe that has not recorded for this long is replaced (its worker died). Default: lease (60 s + 30 s) + 30 s. */
  staleProbeMs?: number;
  /** The window status() reports when no policy is at hand (docs/rules.md#breaker-open: 5 min). */
  windowMs?: number;
  /** Wall clock for the cache only; domain time always comes from `clock`. */
  wallClock?: () => number;
}

/** A scope: a tenant, or one endpoint of a tenant. */
export type BreakerScopeRef = { tenantId: string; endpointId?: string };

export interface BreakerStatus {
  scopeKey: string;
  scope: rules.BreakerScope;
  tenantId: string;
  state: rules.BreakerState;
  pauseMs: number;
  openedAt: number | null;
  nextProbeAt: number | null;
  probeDeliveryId: string | null;
  updatedAt: number | null;
  /** Distinct deliveries attempted in the current sliding window (each by its latest attempt) and how many failed. */
  window: { deliveries: number; failures: number; sinceMs: number };
}

const DEFAULT_STALE_PROBE_MS = DEFAULTS.dispatcher.leaseMs + DEFAULTS.staleProbeMarginMs;
const SAVE_TRIES = 4;

export class Breaker implements AdmissionGate {
  readonly #o: BreakerOptions;
  readonly #cacheMs: number;
  readonly #staleProbeMs: number;
  readonly #wall: () => number;
  readonly #cache = new Map<string, { row: BreakerRow | null; at: number }>();
  /** Domain time of the last delivery failure this process saw per scope: a success re-checks the window only then. */
  readonly #recentFailure = new Map<string, number>();
  readonly #evaluations = new Coalescer();

  constructor(o: BreakerOptions) {
    this.#o = o;
    this.#cacheMs = o.cacheMs ?? 250;
    this.#staleProbeMs = o.staleProbeMs ?? DEFAULT_STALE_PROBE_MS;
    this.#wall = o.wallClock ?? Date.now;
  }

  // ---- AdmissionGate

  scopeKey(c: ClaimedDelivery, policy: Policy): string | null {
    const rule = policy.breaker;
    if (!rule) return null;
    return rule.scope === 'endpoint'
      ? rules.scopeKeyOf('endpoint', c.endpoint.id)
      : rules.scopeKeyOf('tenant', c.delivery.tenantId);
  }

  async admit(c: ClaimedDelivery, policy: Policy, now: number): Promise<Admission> {
    // The age limit is the dispatcher's admission, before any gate (dispatch/admission.ts, docs/rules.md#age-limit).
    const rule = policy.breaker;
    if (!rule) return { kind: 'send', probe: false };
    const key = this.scopeKey(c, policy)!;
    // Hot path: a recently read closed row. Anything else is decided on a fresh read; the CAS decides races.
    const cached = this.#cached(key);
    if (cached !== undefined && (cached === null || cached.state === 'closed')) return { kind: 'send', probe: false };
    for (let i = 0; i < SAVE_TRIES; i++) {
      const row = await this.#read(key);
      const a = rules.admit(rule, row, c.delivery.id, now, this.#staleProbeMs);
      if (a.kind === 'send') return { kind: 'send', probe: false };
      if (a.kind === 'hold') return { kind: 'hold', until: a.until };
      if (await this.#save(a.change, row, now)) return { kind: 'send', probe: true };
    }
    return { kind: 'hold', until: now + rule.recheckMs };
  }

  async afterAttempt(c: ClaimedDelivery, policy: Policy, attempt: Attempt, probe: boolean, now: number): Promise<void> {
    const rule = policy.breaker;
    if (!rule) return;
    const key = this.scopeKey(c, policy)!;
    try {
      if (probe) return await this.#afterProbe(rule, key, c.delivery.id, attempt, now);
      // A success or client error can only trip the window by adding the delivery that reaches minAttempts,
      // so it re-checks only while failures are about; a healthy hot path never queries the window.
      if (attempt.outcome === 'delivery_failure') this.#recentFailure.set(key, now);
      else {
        const seen = this.#recentFailure.get(key);
        if (seen === undefined) return;
        if (now - seen > rule.windowMs) {
          this.#recentFailure.delete(key);
          return;
        }
      }
      const cached = this.#cached(key);
      if (cached && cached.state !== 'closed') return;
      await this.#evaluations.run(key, () => this.#evaluate(rule, key, c.delivery.tenantId));
    } catch (err) {
      // The attempt is already recorded; a failed breaker update must not fail the delivery.
      this.#o.logger.log('error', 'breaker update failed', { scope_key: key, error: (err as Error).message });
    }
  }

  // ---- operations (API, CLI, console)

  /** The scope key of a tenant (`tenant:<id>`) or of one endpoint (`endpoint:<id>`). */
  scopeKeyFor(ref: BreakerScopeRef): string {
    return ref.endpointId !== undefined
      ? rules.scopeKeyOf('endpoint', ref.endpointId)
      : rules.scopeKeyOf('tenant', ref.tenantId);
  }

  /** A scope's breaker; a scope that never tripped reads as closed. A ref is checked to exist (404 otherwise). */
  async status(scope: string | BreakerScopeRef, windowMs = this.#o.windowMs ?? 5 * 60_000): Promise<BreakerStatus> {
    const { key, tenantId } = await this.#resolve(scope);
    const row = await this.#read(key);
    return this.#describe(key, row, tenantId, windowMs);
  }

  /** Every breaker row of a tenant (tenant and endpoint scopes). */
  async list(tenantId: string, windowMs = this.#o.windowMs ?? 5 * 60_000): Promise<BreakerStatus[]> {
    const out: BreakerStatus[] = [];
    for (const row of await this.#o.store.breakers.listBreakers(tenantId))
      out.push(await this.#describe(row.scopeKey, row, tenantId, windowMs));
    return out;
  }

  /** Manual reset: closed at once, pause and window reset, every held delivery of the scope due now. */
  async reset(scope: string | BreakerScopeRef, audit?: Omit<AuditDraft, 'target'>): Promise<BreakerStatus> {
    const { key, tenantId } = await this.#resolve(scope);
    const now = this.#o.clock.now();
    for (let i = 0; i < SAVE_TRIES; i++) {
      const row = await this.#read(key);
      const change = rules.reset(row, key, row?.tenantId ?? tenantId ?? '', now);
      if (!change || (await this.#save(change, row, now))) break;
    }
    const target = { type: 'breaker' as const, id: key, tenantId: tenantId ?? rules.scopeOfKey(key).id };
    await this.#closed(key, now, audit && { ...audit, target });
    return this.status(key);
  }

  // ---- internals

  async #resolve(scope: string | BreakerScopeRef): Promise<{ key: string; tenantId: string | null }> {
    if (typeof scope === 'string') {
      const { scope: kind, id } = rules.scopeOfKey(scope);
      return { key: scope, tenantId: kind === 'tenant' ? id : null };
    }
    if (scope.endpointId !== undefined) {
      if (!(await this.#o.store.catalog.getEndpoint(scope.tenantId, scope.endpointId)))
        throw fail('endpoint_not_found');
    } else if (!(await this.#o.store.catalog.getTenant(scope.tenantId))) throw fail('tenant_not_found');
    return { key: this.scopeKeyFor(scope), tenantId: scope.tenantId };
  }

  async #describe(
    key: string,
    row: BreakerRow | null,
    tenantId: string | null,
    windowMs: number,
  ): Promise<BreakerStatus> {
    const now = this.#o.clock.now();
    const since = now - windowMs;
    const w = await this.#o.store.breakers.breakerWindow(key, since);
    const base = row ?? rules.closedRow(key, tenantId ?? '', now);
    return {
      scopeKey: key,
      scope: rules.scopeOfKey(key).scope,
      tenantId: row?.tenantId ?? tenantId ?? '',
      state: base.state,
      pauseMs: base.pauseMs,
      openedAt: base.openedAt,
      nextProbeAt: base.nextProbeAt,
      probeDeliveryId: base.probeDeliveryId,
      updatedAt: row?.updatedAt ?? null,
      window: { deliveries: w.deliveries, failures: w.failures, sinceMs: since },
    };
  }

  async #evaluate(rule: BreakerRule, key: string, tenantId: string): Promise<void> {
    const now = this.#o.clock.now();
    const row = await this.#read(key);
    if (row && row.state !== 'closed') return;
    const window = await this.#o.store.breakers.breakerWindow(key, now - rule.windowMs);
    const change = rules.afterWindow(rule, row ?? rules.closedRow(key, tenantId, now), window, now);
    if (change) await this.#save(change, row, now);
  }

  async #afterProbe(rule: BreakerRule, key: string, deliveryId: string, attempt: Attempt, now: number): Promise<void> {
    for (let i = 0; i < SAVE_TRIES; i++) {
      const row = await this.#read(key);
      const change = rules.afterProbe(rule, row, deliveryId, attempt.outcome, now);
      if (!change) return;
      if (await this.#save(change, row, now)) {
        if (change.row.state === 'closed') await this.#closed(key, now);
        return;
      }
    }
  }

  /** After closing: counters reset, every held delivery of the scope due at once, the dispatcher woken. */
  async #closed(key: string, now: number, audit?: AuditDraft): Promise<void> {
    this.#recentFailure.delete(key);
    // A reset by hand is recorded with the window's reset (docs/audit.md); a probe's close is the engine's own.
    if (audit) await this.#o.store.audit.audited(audit, 'resetBreakerWindow', [key]);
    else await this.#o.store.breakers.resetBreakerWindow(key);
    const { scope, id } = rules.scopeOfKey(key);
    const released = await this.#o.store.breakers.releaseHeld(
      scope === 'tenant' ? { tenantId: id } : { endpointId: id },
      now,
    );
    if (released > 0) this.#o.onRelease?.();
  }

  async #read(key: string): Promise<BreakerRow | null> {
    const row = await this.#o.store.breakers.getBreaker(key);
    this.#cache.set(key, { row, at: this.#wall() });
    return row;
  }

  #cached(key: string): BreakerRow | null | undefined {
    const hit = this.#cache.get(key);
    if (!hit) return undefined;
    if (this.#wall() - hit.at >= this.#cacheMs) {
      this.#cache.delete(key);
      return undefined;
    }
    return hit.row;
  }

  /**
   * Compare-and-set against the row the change was computed from; emits the transition when it wins. A transition
   * the owners are told about is written to the outbox in the same transaction (docs/rules.md#notifications).
   */
  async #save(change: rules.BreakerChange, prev: BreakerRow | null, now: number): Promise<boolean> {
    const r = change.row;
    const t: BreakerTransition = {
      at: now,
      scope: rules.scopeOfKey(r.scopeKey).scope,
      scopeKey: r.scopeKey,
      tenantId: r.tenantId,
      from: change.transition.from,
      to: change.transition.to,
      reason: change.transition.reason,
      pauseMs: r.pauseMs,
      nextProbeAt: r.nextProbeAt,
      probeDeliveryId: r.probeDeliveryId,
    };
    const ok = await this.#o.store.breakers.saveBreaker(r, prev ? prev.updatedAt : null, breakerEntry(t));
    if (!ok) {
      this.#cache.delete(r.scopeKey);
      return false;
    }
    this.#cache.set(r.scopeKey, { row: r, at: this.#wall() });
    this.#o.logger.log('info', 'breaker', {
      scope_key: r.scopeKey,
      from: t.from,
      to: t.to,
      reason: t.reason,
      pause_ms: r.pauseMs,
    });
    try {
      this.#o.onTransition?.(t);
    } catch (err) {
      this.#o.logger.log('error', 'breaker observer failed', { error: (err as Error).message });
    }
    return true;
  }
}
