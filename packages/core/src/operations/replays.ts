// Replays (docs/rules.md#replay): one failed or skipped delivery, or an endpoint's window under a daily quota; progress by id.

import type { Actor } from '../audit/audit-types.ts';
import { DEFAULTS } from '../defaults.ts';
import { fail } from '../errors.ts';
import { newId } from '../ids.ts';
import type { ReplayRow } from '../store/store.ts';
import { audited } from './audit.ts';
import type { EngineParts } from './engine-parts.ts';
import { dailyReplayQuota, replayQuotaExceeded } from './replay-quota.ts';

export class ReplayOperations {
  readonly #p: EngineParts;

  constructor(parts: EngineParts) {
    this.#p = parts;
  }

  async #activeEndpoint(tenantId: string, id: string): Promise<void> {
    const ep = await this.#p.store.catalog.getEndpoint(tenantId, id);
    if (!ep) throw fail('endpoint_not_found');
    if (ep.status === 'paused') throw fail('endpoint_paused');
  }

  /** One attempt now for a failed or skipped delivery, same ids. */
  async delivery(tenantId: string, deliveryId: string, actor?: Actor): Promise<ReplayRow> {
    const p = this.#p;
    const d = await p.store.reporting.getDelivery(tenantId, deliveryId);
    if (!d) throw fail('delivery_not_found');
    if (d.status !== 'failed' && d.status !== 'skipped') throw fail('delivery_not_replayable', { status: d.status });
    await this.#activeEndpoint(tenantId, d.endpointId);
    const now = p.clock.now();
    const replay: ReplayRow = {
      id: newId('rpl', now),
      tenantId,
      endpointId: d.endpointId,
      kind: 'single',
      sinceMs: null,
      untilMs: null,
      includeSkipped: d.status === 'skipped',
      selected: 1,
      attempted: 0,
      succeeded: 0,
      failed: 0,
      createdAt: now,
    };
    const what = {
      action: 'delivery.replay',
      target: { type: 'delivery' as const, id: deliveryId, tenantId },
      details: { replay_id: replay.id },
    };
    if (!(await audited(p, actor, what, 'scheduleSingleReplay', replay, deliveryId, now)))
      throw fail('delivery_not_replayable', { status: 'changed' });
    p.dispatcher.wake();
    return replay;
  }

  /** Replays the endpoint's failed (and optionally skipped) deliveries attempted within [since, until]. */
  async window(
    tenantId: string,
    endpointId: string,
    opts: { since?: number; until?: number; includeSkipped?: boolean } = {},
    actor?: Actor,
  ): Promise<ReplayRow> {
    const p = this.#p;
    await this.#activeEndpoint(tenantId, endpointId);
    const now = p.clock.now();
    const until = opts.until ?? now;
    const since = opts.since ?? now - DEFAULTS.replay.windowMs;
    if (since > until) throw fail('invalid_request', { detail: 'since must not be after until' });
    const quota = dailyReplayQuota(p.settings, now);
    const replay: ReplayRow = {
      id: newId('rpl', now),
      tenantId,
      endpointId,
      kind: 'window',
      sinceMs: since,
      untilMs: until,
      includeSkipped: opts.includeSkipped === true,
      selected: 0,
      attempted: 0,
      succeeded: 0,
      failed: 0,
      createdAt: now,
    };
    const what = { action: 'endpoint.replay', target: { type: 'replay' as const, id: replay.id, tenantId } };
    const result = await audited(
      p,
      actor,
      what,
      'scheduleWindowReplay',
      replay,
      p.settings.replayMaxDeliveries ?? DEFAULTS.replay.maxDeliveries,
      now,
      quota,
    );
    if (result.kind === 'quota_exceeded') throw replayQuotaExceeded(quota, now);
    replay.selected = result.selected;
    if (replay.selected > 0) p.dispatcher.wake();
    return replay;
  }

  /** A replay's progress; 404 `replay_not_found`. */
  async get(tenantId: string, id: string): Promise<ReplayRow> {
    const r = await this.#p.store.replays.getReplay(tenantId, id);
    if (!r) throw fail('replay_not_found');
    return r;
  }

  /** The replay, or null when the tenant has none by that id. */
  find(tenantId: string, id: string): Promise<ReplayRow | null> {
    return this.#p.store.replays.getReplay(tenantId, id);
  }
}
