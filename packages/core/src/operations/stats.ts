// What an operator watches (docs/scaling.md "What to watch"): queue depth, the oldest due delivery's wait, success rates.
import { QUEUED_STATUSES } from '../domain.ts';
import { fail } from '../errors.ts';
import type { EndpointStats } from '../store/store.ts';
import { DAY_MS, type EngineParts } from './engine-parts.ts';

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

/** One minute of a tenant's deliveries (docs/console.md#pages): by the minute of their last attempt. */
export interface MinuteStats {
  at: number;
  succeeded: number;
  retrying: number;
  failed: number;
}

export class StatsOperations {
  readonly #p: EngineParts;

  constructor(parts: EngineParts) {
    this.#p = parts;
  }

  /** Deliveries not yet terminal over every tenant, and how long the oldest due one has waited. */
  async queue(): Promise<QueueStats> {
    const store = this.#p.store;
    const now = this.#p.clock.now();
    const [queued, oldestDueAt] = await Promise.all([store.reporting.countQueued(), store.reporting.oldestDueAt(now)]);
    return { at: now, queued, oldestDueAgeMs: oldestDueAt === null ? null : now - oldestDueAt };
  }

  /** The tenant's queue per endpoint and each endpoint's success rate over deliveries that ended since `since` (default 24 h). */
  async tenant(tenantId: string, opts: { since?: number } = {}): Promise<TenantStats> {
    const now = this.#p.clock.now();
    const since = opts.since ?? now - DAY_MS;
    if (since > now) throw fail('invalid_request', { detail: 'since must not be in the future' });
    const endpoints = (await this.#p.store.reporting.endpointStats(tenantId, since, now)).map((e) => ({
      ...e,
      oldestDueAgeMs: e.oldestDueAt === null ? null : now - e.oldestDueAt,
      successRate: e.succeeded + e.failed === 0 ? null : e.succeeded / (e.succeeded + e.failed),
    }));
    const queued = { pending: 0, delivering: 0, held: 0 };
    for (const e of endpoints) for (const k of QUEUED_STATUSES) queued[k] += e.queued[k];
    const ages = endpoints.map((e) => e.oldestDueAgeMs).filter((a): a is number => a !== null);
    return { at: now, since, queued, oldestDueAgeMs: ages.length === 0 ? null : Math.max(...ages), endpoints };
  }

  /** The tenant's deliveries per minute over the last 24 h (minutes with none are left out), oldest first. */
  async perMinute(tenantId: string): Promise<{ since: number; until: number; minutes: MinuteStats[] }> {
    const now = this.#p.clock.now();
    const since = Math.floor((now - DAY_MS) / 60_000) * 60_000;
    const rows = await this.#p.store.reporting.deliveriesPerMinute(tenantId, since);
    return {
      since,
      until: now,
      minutes: rows.map((r) => ({
        at: r.minute * 60_000,
        succeeded: r.succeeded,
        retrying: r.retrying,
        failed: r.failed,
      })),
    };
  }
}
