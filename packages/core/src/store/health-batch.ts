// Endpoint health across one commit of attempts: read each endpoint once, apply every attempt, write what changed.
import type { Attempt, Endpoint } from '../domain.ts';
import { healthAfterAttempt } from '../health.ts';
import { healthEntry } from '../outbox/outbox-entries.ts';
import { insertOutbox } from './outbox-writes.ts';
import * as rows from './rows.ts';
import type { SqlExecutor } from './sql-driver.ts';
import type { AttemptRecord, HealthTransition } from './store.ts';

/**
 * Endpoint health across one commit: each endpoint is read once, every attempt of the batch is applied in order
 * (the shared pure decision in health.ts), and only endpoints whose state changed are written, once, with the
 * notifications of their transitions (docs/rules.md#notifications) in the same transaction.
 */
export class HealthBatch {
  readonly #endpoints = new Map<string, { ep: Endpoint; dirty: boolean }>();
  readonly #transitions: HealthTransition[] = [];
  constructor(
    private readonly tx: SqlExecutor,
    private readonly now: number,
  ) {}

  /** Reads (and, on PostgreSQL, locks) an endpoint row once per batch. */
  async load(endpointId: string): Promise<void> {
    if (this.#endpoints.has(endpointId)) return;
    const [r] = await this.tx.all('get-endpoint-by-id', { id: endpointId });
    if (r) this.#endpoints.set(endpointId, { ep: rows.endpointFromRow(r), dirty: false });
  }

  async apply(a: Attempt, h: NonNullable<AttemptRecord['health']>, previousAttemptAt: number | null): Promise<void> {
    await this.load(a.endpointId);
    const entry = this.#endpoints.get(a.endpointId);
    if (!entry) return;
    const ep = entry.ep;
    const change = healthAfterAttempt(ep, {
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
    if (!change.changed) return;
    Object.assign(ep, change.state);
    entry.dirty = true;
    if (change.transition)
      this.#transitions.push({ tenantId: ep.tenantId, endpointId: ep.id, ...change.transition, at: this.now });
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
    for (const t of this.#transitions) {
      const entry = healthEntry(t, this.#endpoints.get(t.endpointId)?.ep ?? null);
      if (entry) await insertOutbox(this.tx, entry);
    }
    return this.#transitions;
  }
}
