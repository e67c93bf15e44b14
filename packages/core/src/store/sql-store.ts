// The Store over any SqlDriver: the logic is written once, each dialect supplies only its SQL files and driver.
import type {
  Attempt,
  Delivery,
  DeliveryStatus,
  Endpoint,
  EndpointStatus,
  Environment,
  EventRecord,
  Tenant,
} from '../domain.ts';
import { healthEntry } from '../outbox/outbox-entries.ts';
import { HealthBatch } from './health-batch.ts';
import { addToFailureSummaries, flushDueSummaries, insertOutbox } from './outbox-writes.ts';
import { applyRateLimits } from './rate-limited-claim.ts';
import * as rows from './rows.ts';
import type { SqlDriver, SqlExecutor } from './sql-driver.ts';
import type { StoreProblem } from './storage-fault.ts';
import type {
  AcceptResult,
  ApiKeyRecord,
  AttemptRecord,
  BreakerRow,
  BreakerWindow,
  CatchUpResult,
  ClaimedDelivery,
  ClaimOptions,
  DeliveryFilter,
  EndpointPatch,
  EndpointStats,
  EventTypeRow,
  HealthTransition,
  NewEvent,
  NewTenant,
  Notice,
  OutboxEntry,
  OutboxRow,
  Page,
  ReplayQuota,
  ReplayRow,
  SealedSecret,
  Store,
  TenantPatch,
  WindowReplayResult,
} from './store.ts';

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const ALL_STATUSES: DeliveryStatus[] = ['pending', 'delivering', 'held', 'succeeded', 'failed', 'skipped'];

function page<T extends { id: string }>(items: T[], limit: number): Page<T> {
  const more = items.length > limit;
  const kept = more ? items.slice(0, limit) : items;
  return { items: kept, nextCursor: more ? kept[kept.length - 1].id : null };
}

export class SqlStore implements Store {
  readonly dialect: 'sqlite' | 'postgres';
  readonly capsAcrossWorkers: boolean;
  constructor(readonly driver: SqlDriver) {
    this.dialect = driver.dialect;
    this.capsAcrossWorkers = driver.dialect === 'postgres';
  }

  migrate(): Promise<void> {
    return this.driver.migrate();
  }
  close(): Promise<void> {
    return this.driver.close();
  }
  ping(): Promise<boolean> {
    return this.driver.ping();
  }
  async problem(): Promise<StoreProblem | null> {
    if (this.driver.problem) return this.driver.problem();
    return (await this.driver.ping()) ? null : { fatal: false, reason: 'the database does not answer' };
  }
  onFatal(listener: (err: Error) => void): void {
    this.driver.onFatal?.(listener);
  }

  async getSetting(key: string): Promise<string | null> {
    const [r] = await this.driver.all('get-setting', { key });
    return r ? r.value : null;
  }
  async setSetting(key: string, value: string): Promise<void> {
    await this.driver.run('set-setting', { key, value });
  }

  // tenants
  async createTenant(tenant: NewTenant): Promise<void> {
    await this.driver.run('insert-tenant', rows.tenantToRow(tenant));
  }
  async getTenant(id: string): Promise<Tenant | null> {
    const [r] = await this.driver.all('get-tenant', { id });
    return r ? rows.tenantFromRow(r) : null;
  }
  async listTenants(
    cursor: string | null,
    limit: number,
    filter: { environment?: Environment } = {},
  ): Promise<Page<Tenant>> {
    const rs = await this.driver.all('list-tenants', {
      after: cursor ?? '',
      environment: filter.environment ?? null,
      limit: limit + 1,
    });
    return page(rs.map(rows.tenantFromRow), limit);
  }
  async updateTenant(id: string, patch: TenantPatch, now: number): Promise<Tenant | null> {
    return this.driver.transaction(async (tx) => {
      const [r] = await tx.all('get-tenant', { id });
      if (!r) return null;
      const cur = rows.tenantFromRow(r);
      // The environment is never patched, whatever a caller's object holds (docs/rules.md#environments).
      const next: Tenant = { ...cur, ...patch, id, environment: cur.environment, updatedAt: now };
      const row = rows.tenantToRow(next);
      await tx.run('update-tenant', { ...row, now });
      return next;
    });
  }
  async deleteTenant(id: string): Promise<boolean> {
    return (await this.driver.run('delete-tenant', { id })) > 0;
  }

  // api keys
  async createApiKey(key: ApiKeyRecord): Promise<void> {
    await this.driver.run('insert-api-key', rows.apiKeyToRow(key));
  }
  async listApiKeys(tenantId: string): Promise<ApiKeyRecord[]> {
    return (await this.driver.all('list-api-keys', { tenant_id: tenantId })).map(rows.apiKeyFromRow);
  }
  async touchApiKey(id: string, now: number, granularityMs: number): Promise<void> {
    await this.driver.run('touch-api-key', { id, now, recorded_before: now - granularityMs });
  }
  async revokeApiKey(tenantId: string, id: string, now: number): Promise<boolean> {
    return (await this.driver.run('revoke-api-key', { tenant_id: tenantId, id, now })) > 0;
  }
  async findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    const [r] = await this.driver.all('find-api-key', { hash });
    return r ? rows.apiKeyFromRow(r) : null;
  }

  // console portal links
  async createPortalLink(
    link: { hash: string; tenantId: string; createdAt: number; expiresAt: number },
    now: number,
  ): Promise<void> {
    await this.driver.transaction(async (tx) => {
      await tx.run('purge-portal-links', { before: now });
      await tx.run('insert-portal-link', {
        hash: link.hash,
        tenant_id: link.tenantId,
        created_at: link.createdAt,
        expires_at: link.expiresAt,
      });
    });
  }
  async consumePortalLink(hash: string, now: number): Promise<string | null> {
    const [r] = await this.driver.all('consume-portal-link', { hash, now });
    return r ? String(r.tenant_id) : null;
  }

  // endpoints
  async createEndpoint(endpoint: Endpoint, secret: SealedSecret): Promise<void> {
    await this.driver.transaction(async (tx) => {
      await tx.run('insert-endpoint', rows.endpointToRow(endpoint));
      await tx.run('set-endpoint-options', rows.endpointOptionsToRow(endpoint));
      await tx.run('insert-secret', {
        kid: secret.kid,
        endpoint_id: endpoint.id,
        sealed: secret.sealed,
        created_at: secret.createdAt,
        expires_at: secret.expiresAt,
      });
    });
  }
  async getEndpoint(tenantId: string, id: string) {
    const [r] = await this.driver.all('get-endpoint', { tenant_id: tenantId, id });
    return r ? rows.endpointFromRow(r) : null;
  }
  async listEndpoints(tenantId: string, cursor: string | null, limit: number): Promise<Page<Endpoint>> {
    const rs = await this.driver.all('list-endpoints', { tenant_id: tenantId, after: cursor ?? '', limit: limit + 1 });
    return page(
      rs.map((r) => rows.endpointFromRow(r)),
      limit,
    );
  }
  async listTenantEndpoints(tenantId: string): Promise<Endpoint[]> {
    return (await this.driver.all('list-tenant-endpoints', { tenant_id: tenantId })).map((r) =>
      rows.endpointFromRow(r),
    );
  }
  /** `inTx`: write inside the caller's transaction (reactivateWithCatchUp). */
  async updateEndpoint(tenantId: string, id: string, patch: EndpointPatch, now: number, inTx?: SqlExecutor) {
    const write = async (tx: SqlExecutor) => {
      const [r] = await tx.all('get-endpoint', { tenant_id: tenantId, id });
      if (!r) return null;
      const cur = rows.endpointFromRow(r);
      const next: Endpoint & { version: number } = { ...cur, updatedAt: now, version: cur.version + 1 };
      if (patch.url !== undefined) next.url = patch.url;
      if (patch.description !== undefined) next.description = patch.description;
      if (patch.eventTypes !== undefined) next.eventTypes = patch.eventTypes;
      if (patch.policy !== undefined) next.policy = patch.policy;
      if (patch.scheme !== undefined) next.scheme = patch.scheme;
      if (patch.timeoutMs !== undefined) next.timeoutMs = patch.timeoutMs;
      if (patch.maxConcurrency !== undefined) next.maxConcurrency = patch.maxConcurrency;
      if (patch.ordering !== undefined) next.ordering = patch.ordering;
      if (patch.orderingOnFailure !== undefined) next.orderingOnFailure = patch.orderingOnFailure;
      if (patch.payloadFilter !== undefined) next.payloadFilter = patch.payloadFilter;
      if (patch.customHeaders !== undefined) next.customHeaders = patch.customHeaders;
      if (patch.rateLimitPerS !== undefined) next.rateLimitPerS = patch.rateLimitPerS;
      if (patch.status !== undefined) next.status = patch.status;
      if (patch.pauseReason !== undefined) next.pauseReason = patch.pauseReason;
      if (next.status !== 'paused') next.pauseReason = null;
      if (patch.clearHealth) {
        next.failingSince = null;
        next.consecutiveFailedEvents = 0;
        if (next.status === 'degraded') next.status = 'active';
      }
      await tx.run('update-endpoint', { ...rows.endpointToRow(next), now });
      await tx.run('set-endpoint-options', rows.endpointOptionsToRow(next));
      // The pause triggers of migration 010 keep paused_at; the row read back carries it.
      const [back] = await tx.all('get-endpoint', { tenant_id: tenantId, id });
      return { ...next, pausedAt: rows.endpointFromRow(back).pausedAt };
    };
    return inTx ? write(inTx) : this.driver.transaction(write);
  }
  async reactivateWithCatchUp(
    tenantId: string,
    id: string,
    patch: EndpointPatch,
    replay: ReplayRow,
    limit: number,
    now: number,
    quota?: ReplayQuota,
  ): Promise<CatchUpResult> {
    return this.driver
      .transaction(async (tx): Promise<CatchUpResult> => {
        const [r] = await tx.all('get-endpoint', { tenant_id: tenantId, id });
        if (!r) return { kind: 'not_found' };
        const cur = rows.endpointFromRow(r);
        if (cur.status !== 'paused') return { kind: 'not_paused', status: cur.status };
        const endpoint = (await this.updateEndpoint(tenantId, id, patch, now, tx))!;
        // Everything that failed or was skipped since the pause began, by when it last changed (docs/rules.md#catch-up).
        const scheduled: ReplayRow = {
          ...replay,
          sinceMs: cur.pausedAt ?? cur.updatedAt,
          untilMs: now,
          includeSkipped: true,
        };
        scheduled.selected = await this.#scheduleWindow(tx, scheduled, limit, now, quota, 'catch-up');
        return { kind: 'scheduled', endpoint, replay: scheduled };
      })
      .catch((err) => {
        if (err instanceof QuotaExceeded) return { kind: 'quota_exceeded', used: err.used } as const;
        throw err;
      });
  }
  async deleteEndpoint(tenantId: string, id: string): Promise<boolean> {
    return (await this.driver.run('delete-endpoint', { tenant_id: tenantId, id })) > 0;
  }
  async listSecrets(endpointId: string): Promise<SealedSecret[]> {
    return (await this.driver.all('list-secrets', { endpoint_id: endpointId })).map(rows.secretFromRow);
  }
  async rotateSecret(endpointId: string, secret: SealedSecret, retireAt: number, now: number): Promise<void> {
    await this.driver.transaction(async (tx) => {
      await tx.run('retire-secrets', { endpoint_id: endpointId, retire_at: retireAt });
      await tx.run('insert-secret', {
        kid: secret.kid,
        endpoint_id: endpointId,
        sealed: secret.sealed,
        created_at: secret.createdAt,
        expires_at: null,
      });
      await tx.run('bump-endpoint-version', { id: endpointId, now });
    });
  }

  // events
  async acceptEvents(events: NewEvent[]): Promise<AcceptResult[]> {
    return this.driver.transaction(async (tx) => {
      // Ordering keys are numbered under their lock (PostgreSQL: commit order across API processes), every key of the
      // batch first and in one sorted order, so concurrent batches never deadlock (docs/rules.md#ordering-sequence).
      const keys = new Set<string>();
      for (const ne of events)
        for (const d of ne.deliveries)
          if (d.orderingKey !== undefined) keys.add(`${d.endpointId}\u0000${d.orderingKey}`);
      if (this.capsAcrossWorkers) for (const k of [...keys].sort(cmp)) await lockKey(tx, k);
      const out: AcceptResult[] = [];
      for (const ne of events) out.push(await this.#acceptOne(tx, ne));
      return out;
    });
  }

  async #acceptOne(tx: SqlExecutor, ne: NewEvent): Promise<AcceptResult> {
    const ev = ne.event;
    const inserted = await tx.all('insert-event', rows.eventToRow(ev, ne.bodyHash));
    if (inserted.length === 0) {
      const [existing] = await tx.all('find-event', { tenant_id: ev.tenantId, event_id: ev.eventId });
      if (!existing || existing.body_hash !== ne.bodyHash) return { kind: 'conflict', eventId: ev.eventId };
      const deliveries = (await tx.all('event-deliveries', { event_pk: existing.id })).map(rows.deliveryFromRow);
      return { kind: 'existing', event: rows.eventFromRow(existing), deliveries };
    }
    const deliveries: Delivery[] = [];
    for (const d of ne.deliveries) {
      if (d.orderingKey !== undefined && !d.lease) {
        const [r] = await tx.all('insert-ordered-delivery', {
          id: d.id,
          tenant_id: ev.tenantId,
          event_pk: ev.id,
          endpoint_id: d.endpointId,
          status: d.status,
          is_money: ev.isMoney ? 1 : 0,
          next_attempt_at: d.nextAttemptAt,
          ordering_key: d.orderingKey,
          now: ev.createdAt,
        });
        deliveries.push(
          rows.newDelivery(ev, d, {
            orderingSeq: Number(r.ordering_seq),
            nextAttemptAt: r.next_attempt_at == null ? null : Number(r.next_attempt_at),
          }),
        );
        continue;
      }
      await tx.run('insert-delivery', {
        id: d.id,
        tenant_id: ev.tenantId,
        event_pk: ev.id,
        endpoint_id: d.endpointId,
        status: d.lease ? 'delivering' : d.status,
        is_money: ev.isMoney ? 1 : 0,
        next_attempt_at: d.nextAttemptAt,
        lease_until: d.lease?.until ?? null,
        leased_by: d.lease?.workerId ?? null,
        now: ev.createdAt,
      });
      deliveries.push(rows.newDelivery(ev, d));
    }
    return { kind: 'created', event: ev, deliveries };
  }

  async getEvent(tenantId: string, eventId: string): Promise<{ event: EventRecord; deliveries: Delivery[] } | null> {
    const [r] = await this.driver.all('find-event', { tenant_id: tenantId, event_id: eventId });
    if (!r) return null;
    const deliveries = (await this.driver.all('event-deliveries', { event_pk: r.id })).map(rows.deliveryFromRow);
    return { event: rows.eventFromRow(r), deliveries };
  }

  // dispatch
  async claimDue(o: ClaimOptions): Promise<ClaimedDelivery[]> {
    return this.driver.transaction(
      async (tx) => {
        const claimed = await tx.all<{ id: string }>('claim-due', {
          now: o.now,
          lease_until: o.leaseUntil,
          worker: o.workerId,
          limit: o.limit,
          saturated: [...o.saturatedEndpoints],
          lease_factor: o.leaseFactor ?? 1,
        });
        if (claimed.length === 0) return [];
        return applyRateLimits(
          tx,
          await this.claimedDeliveries(
            tx,
            claimed.map((c) => c.id),
          ),
          o.workerId,
          o.now,
        );
        // A lease needs no fsync of its own: losing it in an OS crash only means the delivery is claimed again,
        // and the attempt's durable commit syncs it anyway. Halves the fsyncs of a busy dispatcher.
      },
      { durable: false },
    );
  }

  /** Everything a worker needs for the deliveries it just leased (claimed-rows: each row with its endpoint's columns). */
  protected async claimedDeliveries(tx: SqlExecutor, ids: string[]): Promise<ClaimedDelivery[]> {
    const full = await tx.all('claimed-rows', { ids });
    // One endpoint object per endpoint in the batch, shared by its deliveries (read-only): mapped once, and
    // copied once when the claim crosses to another thread.
    const endpoints = new Map<string, ClaimedDelivery['endpoint']>();
    return full.map((r) => {
      let endpoint = endpoints.get(r.endpoint_id);
      if (!endpoint) endpoints.set(r.endpoint_id, (endpoint = rows.endpointFromRow(r, 'e_')));
      return {
        delivery: rows.deliveryFromRow(r),
        body: Buffer.isBuffer(r.ev_body) ? r.ev_body : Buffer.from(r.ev_body),
        endpoint,
        environment: r.t_environment as Environment,
        replayId: r.replay_id ?? null,
      };
    });
  }

  async recordAttempts(records: AttemptRecord[], now: number): Promise<HealthTransition[]> {
    if (records.length === 0) return [];
    return this.driver.transaction(async (tx) => {
      // Keys first (before any endpoint or delivery row, in the accept's sorted order): an accept numbering a key's next
      // delivery and this commit ending its head never interleave, so a waiting delivery is never left unpromoted.
      const keys = [
        ...new Set(
          records
            .filter((r) => r.ordering && r.next.status !== 'pending')
            .map((r) => `${r.ordering!.endpointId}\u0000${r.ordering!.key}`),
        ),
      ];
      if (this.capsAcrossWorkers) for (const k of keys.sort(cmp)) await lockKey(tx, k);
      const health = new HealthBatch(tx, now, this.capsAcrossWorkers);
      // Breaker window rows, keyed scope|delivery: the latest attempt of each delivery in this batch.
      const window = new Map<string, { scopeKey: string; deliveryId: string; at: number; failed: number }>();
      // One lock order for every process (endpoint rows, then delivery rows, then window rows): concurrent commits of
      // several workers on a shared database wait for each other instead of deadlocking.
      const ordered = [...records].sort(
        (x, y) => cmp(x.attempt.endpointId, y.attempt.endpointId) || cmp(x.attempt.deliveryId, y.attempt.deliveryId),
      );
      // Deliveries that end failed by this batch (not replays: a failed replay is no news), for their endpoints' summaries.
      const failed: string[] = [];
      // A dialect that finishes a whole batch in a few statements (SQLite, PostgreSQL) does it here, before the loop.
      const batchFinished = await this.finishBatch(tx, ordered, now);
      // The endpoint rows: before the row-by-row finishes below (endpoint rows, then delivery rows, then window rows),
      // or after a batch finish, whose delivery rows are leased to this worker alone: workers then queue on a shared
      // endpoint row only for the health update and the COMMIT, not for the whole batch. A delete of the endpoint
      // meanwhile, which locks the other way round, is a deadlock PostgreSQL breaks and the transaction runs again.
      for (const rec of ordered) {
        if (rec.health && (!batchFinished || batchFinished.has(rec.attempt.deliveryId))) {
          health.expect(rec.attempt, rec.health, rec.previousAttemptAt ?? null);
        }
      }
      await health.load();
      for (const rec of ordered) {
        const a = rec.attempt;
        const next = rec.next;
        let finished: FinishedRow | undefined;
        if (batchFinished) finished = batchFinished.get(a.deliveryId);
        else {
          // The delivery first: its row lock holds off a concurrent delete until the attempt is in (PostgreSQL).
          [finished] = await tx.all<FinishedRow>('finish-attempt', { ...finishParams(rec), now });
          // Skipped when the delivery is gone, or already on record (a retried commit). It takes over the held
          // period the finish cleared (PostgreSQL's finish-attempt returns it; none when the lease was lost).
          await tx.run('insert-attempt', {
            ...rows.attemptToRow(a),
            held_since: finished?.held_since ?? null,
            held_until: finished?.held_until ?? null,
          });
        }
        if (!finished) continue; // the lease was lost (the attempt stays on record, the new holder decides), or the delivery is gone
        if (finished.ordering_key != null && next.status !== 'pending') {
          await tx.run('promote-next-of-key', { endpoint_id: a.endpointId, ordering_key: finished.ordering_key, now });
        }
        if (next.status === 'failed' && !rec.replayId) failed.push(a.deliveryId);
        if (rec.replayId) {
          await tx.run('bump-replay', {
            id: rec.replayId,
            succeeded: a.outcome === 'success' ? 1 : 0,
            failed: a.outcome === 'success' ? 0 : 1,
          });
        }
        if (rec.health) await health.apply(a, rec.health, rec.previousAttemptAt ?? null);
        if (rec.breakerScope) {
          window.set(`${rec.breakerScope}|${a.deliveryId}`, {
            scopeKey: rec.breakerScope,
            deliveryId: a.deliveryId,
            at: a.startedAt,
            failed: a.outcome === 'delivery_failure' ? 1 : 0,
          });
        }
      }
      for (const [, w] of [...window].sort(([x], [y]) => cmp(x, y))) {
        await tx.run('put-breaker-delivery', {
          scope_key: w.scopeKey,
          delivery_id: w.deliveryId,
          attempted_at: w.at,
          failed: w.failed,
        });
      }
      const transitions = await health.flush();
      await addToFailureSummaries(tx, failed, now);
      return transitions;
    });
  }

  /**
   * Finishes every record's delivery and inserts every attempt of a batch at once, or returns null to have
   * recordAttempts do it one record at a time (finish-attempt, insert-attempt). The map holds the deliveries that
   * finished (the lease still held), by id. Overridden per dialect (sqlite/sqlite-sql-store.ts).
   */
  protected async finishBatch(
    _tx: SqlExecutor,
    _records: readonly AttemptRecord[],
    _now: number,
  ): Promise<Map<string, FinishedRow> | null> {
    return null;
  }

  async holdDeliveries(ids: string[], workerId: string, until: number, now: number): Promise<void> {
    if (ids.length) await this.driver.run('hold-deliveries', { ids, worker: workerId, until, now });
  }
  async endDeliveries(
    ids: string[],
    workerId: string | null,
    status: 'failed' | 'skipped',
    reason: string,
    now: number,
    options: { summarise?: boolean } = {},
  ): Promise<void> {
    if (ids.length === 0) return;
    await this.driver.transaction(async (tx) => {
      // Ending a key's head makes the next of its key due (docs/rules.md#ordered-claim); keys locked first, as above.
      const keyed = await tx.all<{ endpoint_id: string; ordering_key: string }>('keys-of-deliveries', { ids });
      const keys = [...new Set(keyed.map((r) => `${r.endpoint_id}\u0000${r.ordering_key}`))].sort(cmp);
      if (this.capsAcrossWorkers) for (const k of keys) await lockKey(tx, k);
      const replayOf = new Map(
        (await tx.all<{ id: string; replay_id: string }>('replays-of-deliveries', { ids })).map((r) => [
          r.id,
          r.replay_id,
        ]),
      );
      const ended = await tx.all<{ id: string }>('end-deliveries', { ids, worker: workerId, status, reason, now });
      for (const k of keys) {
        const cut = k.indexOf('\u0000');
        await tx.run('promote-next-of-key', { endpoint_id: k.slice(0, cut), ordering_key: k.slice(cut + 1), now });
      }
      // A replay's delivery ended unattempted (its endpoint paused meanwhile) is done for the replay, and failed.
      for (const r of ended) {
        const replayId = replayOf.get(r.id);
        if (replayId) await tx.run('bump-replay', { id: replayId, succeeded: 0, failed: 1 });
      }
      // As with attempts, a replay's failure is not summarised again (the delivery was failed or skipped before).
      if (status === 'failed' && options.summarise !== false)
        await addToFailureSummaries(
          tx,
          ended.filter((r) => !replayOf.has(r.id)).map((r) => r.id),
          now,
        );
    });
  }
  async releaseLeases(ids: string[], workerId: string, now: number): Promise<number> {
    return ids.length ? this.driver.run('release-leases', { ids, worker: workerId, now }) : 0;
  }
  releaseExpiredLeases(now: number): Promise<number> {
    return this.driver.run('release-expired-leases', { now });
  }
  releaseAllLeases(now: number): Promise<number> {
    return this.driver.run('release-all-leases', { now });
  }
  async existingEndpoints(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    return (await this.driver.all<{ id: string }>('existing-endpoints', { ids: [...ids] })).map((r) => r.id);
  }
  async nextDueAt(): Promise<number | null> {
    const [r] = await this.driver.all('next-due-at');
    return r && r.at !== null && r.at !== undefined ? Number(r.at) : null;
  }
  async countInFlight(endpointId: string): Promise<number> {
    const [r] = await this.driver.all('count-in-flight', { endpoint_id: endpointId });
    return Number(r?.n ?? 0);
  }
  async setEffectiveConcurrency(endpointId: string, value: number | null): Promise<void> {
    await this.driver.run('set-effective-concurrency', { id: endpointId, value });
  }

  // deliveries (API)
  async getDelivery(tenantId: string, id: string): Promise<Delivery | null> {
    const [r] = await this.driver.all('get-delivery', { tenant_id: tenantId, id });
    return r ? rows.deliveryFromRow(r) : null;
  }
  async listDeliveries(f: DeliveryFilter, cursor: string | null, limit: number): Promise<Page<Delivery>> {
    const rs = await this.driver.all('list-deliveries', {
      tenant_id: f.tenantId,
      status: f.status ?? null,
      endpoint_id: f.endpointId ?? null,
      event_type: f.eventType ?? null,
      event_id: f.eventId ?? null,
      since: f.since ?? null,
      until: f.until ?? null,
      before: cursor ?? '~',
      limit: limit + 1,
    });
    return page(rs.map(rows.deliveryFromRow), limit);
  }
  async listAttempts(deliveryId: string): Promise<Attempt[]> {
    return (await this.driver.all('list-attempts', { delivery_id: deliveryId })).map(rows.attemptFromRow);
  }
  async countByStatus(): Promise<Record<DeliveryStatus, number>> {
    const out = Object.fromEntries(ALL_STATUSES.map((s) => [s, 0])) as Record<DeliveryStatus, number>;
    for (const r of await this.driver.all('count-by-status')) out[r.status as DeliveryStatus] = Number(r.n);
    return out;
  }
  async countQueued(): Promise<Record<'pending' | 'delivering' | 'held', number>> {
    const out = { pending: 0, delivering: 0, held: 0 };
    for (const r of await this.driver.all('count-queued')) out[r.status as keyof typeof out] = Number(r.n);
    return out;
  }
  async countBreakers(): Promise<{ open: number; probing: number }> {
    const out = { open: 0, probing: 0 };
    for (const r of await this.driver.all('count-breakers'))
      if (r.state === 'open' || r.state === 'probing') out[r.state as 'open' | 'probing'] = Number(r.n);
    return out;
  }
  async oldestDueAt(now: number): Promise<number | null> {
    const [r] = await this.driver.all('oldest-due', { now });
    return r?.at == null ? null : Number(r.at);
  }
  async endpointStats(tenantId: string, since: number, now: number): Promise<EndpointStats[]> {
    return (await this.driver.all('endpoint-stats', { tenant_id: tenantId, since, now })).map((r) => ({
      endpointId: String(r.endpoint_id),
      endpointStatus: r.endpoint_status as EndpointStatus,
      queued: { pending: Number(r.pending), delivering: Number(r.delivering), held: Number(r.held) },
      oldestDueAt: r.oldest_due_at == null ? null : Number(r.oldest_due_at),
      succeeded: Number(r.succeeded),
      failed: Number(r.failed),
    }));
  }
  async deliveriesPerMinute(
    tenantId: string,
    since: number,
  ): Promise<Array<{ minute: number; succeeded: number; retrying: number; failed: number }>> {
    const byMinute = new Map<number, { minute: number; succeeded: number; retrying: number; failed: number }>();
    for (const r of await this.driver.all('deliveries-per-minute', { tenant_id: tenantId, since })) {
      const minute = Number(r.minute);
      let m = byMinute.get(minute);
      if (!m) byMinute.set(minute, (m = { minute, succeeded: 0, retrying: 0, failed: 0 }));
      m[r.status === 'pending' ? 'retrying' : (r.status as 'succeeded' | 'failed')] += Number(r.n);
    }
    return [...byMinute.values()].sort((x, y) => x.minute - y.minute);
  }
  async recordTestAttempt(
    attempt: Attempt,
    health: AttemptRecord['health'],
    now: number,
    workerId?: string,
  ): Promise<HealthTransition[]> {
    return this.driver.transaction(async (tx) => {
      const ok = attempt.outcome === 'success';
      const finished = await tx.run('finish-test-delivery', {
        id: attempt.deliveryId,
        worker: workerId ?? null,
        status: ok ? 'succeeded' : 'failed',
        reason: ok
          ? null
          : `test delivery failed: ${attempt.errorMessage ?? attempt.errorClass ?? attempt.responseStatus}`,
        started_at: attempt.startedAt,
        now,
      });
      // A test delivery is never held before its one attempt (it is created leased and sent at once; one the
      // dispatcher took over records through recordAttempts).
      await tx.run('insert-attempt', { ...rows.attemptToRow(attempt), held_since: null, held_until: null });
      if (!health || finished === 0) return [];
      const batch = new HealthBatch(tx, now);
      await batch.apply(attempt, health, null);
      return batch.flush();
    });
  }

  // replays
  async createReplay(replay: ReplayRow): Promise<void> {
    await this.driver.run('insert-replay', rows.replayToRow(replay));
  }
  async getReplay(tenantId: string, id: string): Promise<ReplayRow | null> {
    const [r] = await this.driver.all('get-replay', { tenant_id: tenantId, id });
    return r ? rows.replayFromRow(r) : null;
  }
  async scheduleWindowReplay(
    replay: ReplayRow,
    limit: number,
    now: number,
    quota?: ReplayQuota,
  ): Promise<WindowReplayResult> {
    return this.driver
      .transaction(async (tx): Promise<WindowReplayResult> => {
        return { kind: 'scheduled', selected: await this.#scheduleWindow(tx, replay, limit, now, quota, 'window') };
      })
      .catch((err) => {
        if (err instanceof QuotaExceeded) return { kind: 'quota_exceeded', used: err.used } as const;
        throw err;
      });
  }
  /** Inserts the replay and selects its deliveries (a catch-up's by last change); throws QuotaExceeded (rolling back) over quota. */
  async #scheduleWindow(
    tx: SqlExecutor,
    replay: ReplayRow,
    limit: number,
    now: number,
    quota: ReplayQuota | undefined,
    selection: 'window' | 'catch-up',
  ): Promise<number> {
    let used = 0;
    if (quota) {
      // Serialises the tenant's window replays until commit, so the count below cannot go stale.
      await tx.all('lock-tenant-replays', { tenant_id: replay.tenantId });
      const [r] = await tx.all('count-window-replays', { tenant_id: replay.tenantId, since: quota.since });
      used = Number(r?.n ?? 0);
    }
    await tx.run('insert-replay', rows.replayToRow(replay));
    const params = {
      replay_id: replay.id,
      endpoint_id: replay.endpointId,
      since: replay.sinceMs,
      until: replay.untilMs,
      include_skipped: replay.includeSkipped ? 1 : 0,
      limit,
      now,
    };
    const n =
      selection === 'catch-up'
        ? await tx.run('schedule-catch-up-replay', params)
        : await tx.run('schedule-window-replay', params);
    if (quota && n > 0 && used >= quota.max) throw new QuotaExceeded(used);
    await tx.run('set-replay-selected', { id: replay.id, selected: n });
    return n;
  }
  async dismissDelivery(tenantId: string, id: string, now: number): Promise<boolean> {
    return (await this.driver.run('dismiss-delivery', { tenant_id: tenantId, id, now })) > 0;
  }
  async scheduleSingleReplay(replay: ReplayRow, deliveryId: string, now: number): Promise<boolean> {
    return this.driver
      .transaction(async (tx) => {
        await tx.run('insert-replay', rows.replayToRow({ ...replay, selected: 1 }));
        const n = await tx.run('schedule-single-replay', { replay_id: replay.id, id: deliveryId, now });
        if (n === 0) throw new ReplayNotScheduled();
        return true;
      })
      .catch((err) => {
        if (err instanceof ReplayNotScheduled) return false;
        throw err;
      });
  }

  // breaker
  async getBreaker(scopeKey: string): Promise<BreakerRow | null> {
    const [r] = await this.driver.all('get-breaker', { scope_key: scopeKey });
    return r ? rows.breakerFromRow(r) : null;
  }
  async saveBreaker(row: BreakerRow, expectedUpdatedAt: number | null, notify?: OutboxEntry | null): Promise<boolean> {
    const params = rows.breakerToRow(row);
    const save = (tx: SqlExecutor) =>
      expectedUpdatedAt === null
        ? tx.run('insert-breaker', params)
        : tx.run('update-breaker', { ...params, expected: expectedUpdatedAt });
    if (!notify) return (await save(this.driver)) > 0;
    return this.driver.transaction(async (tx) => {
      if ((await save(tx)) === 0) return false;
      await insertOutbox(tx, notify);
      return true;
    });
  }
  async breakerWindow(scopeKey: string, since: number): Promise<BreakerWindow> {
    const [r] = await this.driver.all('breaker-window', { scope_key: scopeKey, since });
    return { deliveries: Number(r?.deliveries ?? 0), failures: Number(r?.failures ?? 0) };
  }
  async resetBreakerWindow(scopeKey: string): Promise<void> {
    await this.driver.run('reset-breaker-window', { scope_key: scopeKey });
  }
  releaseHeld(scope: { tenantId: string } | { endpointId: string }, now: number): Promise<number> {
    return 'tenantId' in scope
      ? this.driver.run('release-held-tenant', { tenant_id: scope.tenantId, now })
      : this.driver.run('release-held-endpoint', { endpoint_id: scope.endpointId, now });
  }
  async listBreakers(tenantId: string): Promise<BreakerRow[]> {
    return (await this.driver.all('list-breakers', { tenant_id: tenantId })).map(rows.breakerFromRow);
  }

  async listEndpointsFailingSince(failingBefore: number): Promise<Endpoint[]> {
    return (await this.driver.all('list-endpoints-failing-since', { before: failingBefore })).map((r) =>
      rows.endpointFromRow(r),
    );
  }
  async pauseFailingEndpoint(endpointId: string, failingSince: number, now: number): Promise<boolean> {
    return this.driver.transaction(async (tx) => {
      const [r] = await tx.all('get-endpoint-by-id', { id: endpointId });
      if (!r || (await tx.run('pause-failing-endpoint', { id: endpointId, failing_since: failingSince, now })) === 0)
        return false;
      const ep = rows.endpointFromRow(r);
      const entry = healthEntry(
        { tenantId: ep.tenantId, endpointId, from: 'degraded', to: 'paused', reason: 'failing', at: now },
        ep,
      );
      if (entry) await insertOutbox(tx, entry);
      return true;
    });
  }

  // notices
  async addNotice(notice: Omit<Notice, 'environment'>): Promise<void> {
    await this.driver.run('insert-notice', rows.noticeToRow(notice));
  }
  async listNotices(tenantId: string, cursor: string | null, limit: number): Promise<Page<Notice>> {
    const rs = await this.driver.all('list-notices', { tenant_id: tenantId, before: cursor ?? '~', limit: limit + 1 });
    return page(rs.map(rows.noticeFromRow), limit);
  }

  // the notification outbox
  async claimOutbox(now: number, limit: number, leaseUntil: number): Promise<OutboxRow[]> {
    const rs = await this.driver.transaction((tx) => tx.all('claim-outbox', { now, limit, lease_until: leaseUntil }), {
      durable: false,
    });
    return rs.map(rows.outboxFromRow).sort((a, b) => a.dueAt - b.dueAt || cmp(a.id, b.id));
  }
  async finishOutbox(id: string, now: number): Promise<boolean> {
    return (await this.driver.run('finish-outbox', { id, now })) > 0;
  }
  async retryOutbox(
    id: string,
    outcome: { dueAt: number } | { abandon: true },
    error: string,
    now: number,
  ): Promise<void> {
    const abandon = 'abandon' in outcome;
    await this.driver.run('retry-outbox', {
      id,
      status: abandon ? 'abandoned' : 'pending',
      due_at: abandon ? now : outcome.dueAt,
      error: error.slice(0, 1000),
      now,
    });
  }
  releaseOutboxLeases(): Promise<number> {
    return this.driver.run('release-outbox-leases');
  }
  flushFailureSummaries(now: number, windowMs: number): Promise<number> {
    return this.driver.transaction((tx) => flushDueSummaries(tx, now, windowMs, 500));
  }
  purgeOutbox(before: number): Promise<number> {
    return this.driver.run('purge-outbox', { before });
  }
  purgePortalLinks(before: number): Promise<number> {
    return this.driver.run('purge-portal-links', { before });
  }

  // event types
  async putEventType(row: EventTypeRow): Promise<void> {
    await this.driver.run('put-event-type', {
      name: row.name,
      description: row.description,
      definition: JSON.stringify(row.definition),
      updated_at: row.updatedAt,
    });
  }
  async getEventType(name: string): Promise<EventTypeRow | null> {
    const [r] = await this.driver.all('get-event-type', { name });
    return r ? rows.eventTypeFromRow(r) : null;
  }
  async listEventTypes(): Promise<EventTypeRow[]> {
    return (await this.driver.all('list-event-types')).map(rows.eventTypeFromRow);
  }

  // retention
  purgeDeliveries(before: number, batch: number): Promise<number> {
    return this.driver.run('purge-deliveries', { before, batch });
  }
  purgeEvents(before: number, batch: number): Promise<number> {
    return this.driver.run('purge-events', { before, batch });
  }
  purgeBreakerWindow(before: number): Promise<number> {
    return this.driver.run('purge-breaker-window', { before });
  }
}

/** A delivery finish-attempt changed: its id and ordering key, and (PostgreSQL) the held period it cleared. */
export interface FinishedRow {
  id: string;
  ordering_key: string | null;
  held_since?: number | string | null;
  held_until?: number | string | null;
}

/** finish-attempt's parameters for one record (all but :now). */
export function finishParams(rec: AttemptRecord) {
  const a = rec.attempt;
  const next = rec.next;
  return {
    id: a.deliveryId,
    worker: rec.workerId,
    attempt_count: a.n - 1,
    status: next.status,
    ladder: next.status === 'pending' ? next.ladder : null,
    next_attempt_at: next.status === 'pending' ? next.nextAttemptAt : null,
    terminal_reason: next.status === 'failed' ? next.reason : null,
    fast_failures: rec.progress.fastFailures,
    slow_failures: rec.progress.slowFailures,
    slow_started_at: rec.progress.slowStartedAt,
    first_attempt_at: rec.progress.firstAttemptAt,
    last_attempt_at: a.startedAt,
  };
}

/**
 * Locks `endpoint id \0 key` until commit: see lock-ordering-key.sql. Only where several processes write (PostgreSQL,
 * `capsAcrossWorkers`); a SQLite file's write transactions already run one at a time, and skipping the statement
 * keeps it off the hot path of an ordered drain.
 */
async function lockKey(tx: SqlExecutor, k: string): Promise<void> {
  const cut = k.indexOf('\u0000');
  await tx.all('lock-ordering-key', { endpoint_id: k.slice(0, cut), ordering_key: k.slice(cut + 1) });
}

class ReplayNotScheduled extends Error {}
/** Rolls back a window replay over the quota (nothing it selected stays scheduled). */
class QuotaExceeded extends Error {
  constructor(readonly used: number) {
    super('replay quota exceeded');
  }
}
