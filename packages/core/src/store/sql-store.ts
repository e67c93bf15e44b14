// The Store over any SqlDriver: each part's SQL is a module of functions (sql-parts/), which this class only composes;
// each dialect supplies its SQL files, its driver, and overrides of the hooks below (acceptEvents, claimedDeliveries,
// finishBatch) where a multi-row statement saves round trips.
import type { AuditDraft, AuditFilter } from '../audit/audit-types.ts';
import type { Attempt, Endpoint, Environment } from '../domain.ts';
import type { AuditedMethod } from './parts/audit-store.ts';
import { SqlCompatParts } from './sql-compat-parts.ts';
import type { SqlDriver, SqlExecutor } from './sql-driver.ts';
import * as audit from './sql-parts/audit.ts';
import * as breakers from './sql-parts/breakers.ts';
import * as catalog from './sql-parts/catalog.ts';
import * as queue from './sql-parts/delivery-queue.ts';
import * as egress from './sql-parts/endpoint-egress.ts';
import * as events from './sql-parts/events.ts';
import * as outbox from './sql-parts/outbox.ts';
import * as processes from './sql-parts/processes.ts';
import type { FinishedRow, RecordDialect } from './sql-parts/record-attempts.ts';
import * as record from './sql-parts/record-attempts.ts';
import * as replays from './sql-parts/replays.ts';
import * as reporting from './sql-parts/reporting.ts';
import * as retention from './sql-parts/retention.ts';
import type { StoreProblem } from './storage-fault.ts';
import type {
  AcceptResult,
  ApiKeyRecord,
  AttemptRecord,
  BreakerRow,
  ClaimedDelivery,
  ClaimOptions,
  DeliveryFilter,
  EndpointEgress,
  EndpointPatch,
  EventScan,
  EventTypeRow,
  IngestLimits,
  NewEvent,
  NewTenant,
  Notice,
  OutboxEntry,
  ProcessRecord,
  ReplayQuota,
  ReplayRow,
  SealedSecret,
  Store,
  TenantPatch,
} from './store.ts';

export class SqlStore extends SqlCompatParts implements Store {
  readonly dialect: 'sqlite' | 'postgres';
  readonly capsAcrossWorkers: boolean;
  /** The override points recordAttempts and claimDue call, bound once (no allocation per call on the hot path). */
  readonly #record: RecordDialect;
  readonly #readClaimed: queue.ClaimedRowsReader;
  constructor(readonly driver: SqlDriver) {
    super();
    this.dialect = driver.dialect;
    this.capsAcrossWorkers = driver.dialect === 'postgres';
    this.#record = {
      capsAcrossWorkers: this.capsAcrossWorkers,
      finishBatch: (tx, records, now) => this.finishBatch(tx, records, now),
      promoteKeys: this.promoteKeys?.bind(this),
    };
    this.#readClaimed = (tx, ids) => this.claimedDeliveries(tx, ids);
  }

  // lifecycle
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

  // catalog
  getSetting(key: string) {
    return catalog.getSetting(this.driver, key);
  }
  setSetting(key: string, value: string) {
    return catalog.setSetting(this.driver, key, value);
  }
  createTenant(tenant: NewTenant) {
    return catalog.createTenant(this.driver, tenant);
  }
  getTenant(id: string) {
    return catalog.getTenant(this.driver, id);
  }
  listTenants(cursor: string | null, limit: number, filter?: { environment?: Environment; newestFirst?: boolean }) {
    return catalog.listTenants(this.driver, cursor, limit, filter);
  }
  updateTenant(id: string, patch: TenantPatch, now: number) {
    return catalog.updateTenant(this.driver, id, patch, now);
  }
  deleteTenant(id: string) {
    return catalog.deleteTenant(this.driver, id);
  }
  createApiKey(key: ApiKeyRecord) {
    return catalog.createApiKey(this.driver, key);
  }
  listApiKeys(tenantId: string) {
    return catalog.listApiKeys(this.driver, tenantId);
  }
  touchApiKey(id: string, now: number, granularityMs: number) {
    return catalog.touchApiKey(this.driver, id, now, granularityMs);
  }
  revokeApiKey(tenantId: string, id: string, now: number) {
    return catalog.revokeApiKey(this.driver, tenantId, id, now);
  }
  findApiKeyByHash(hash: string) {
    return catalog.findApiKeyByHash(this.driver, hash);
  }
  createPortalLink(link: { hash: string; tenantId: string; createdAt: number; expiresAt: number }, now: number) {
    return catalog.createPortalLink(this.driver, link, now);
  }
  consumePortalLink(hash: string, now: number) {
    return catalog.consumePortalLink(this.driver, hash, now);
  }
  createEndpoint(endpoint: Endpoint, secret: SealedSecret, maxEndpoints: number | null = null) {
    return catalog.createEndpoint(this.driver, endpoint, secret, maxEndpoints);
  }
  countTenantEndpoints(tenantId: string) {
    return catalog.countTenantEndpoints(this.driver, tenantId);
  }
  getTenantUsage(tenantId: string, day: number) {
    return catalog.getTenantUsage(this.driver, tenantId, day);
  }
  getEndpoint(tenantId: string, id: string) {
    return catalog.getEndpoint(this.driver, tenantId, id);
  }
  listEndpoints(tenantId: string, cursor: string | null, limit: number) {
    return catalog.listEndpoints(this.driver, tenantId, cursor, limit);
  }
  listTenantEndpoints(tenantId: string) {
    return catalog.listTenantEndpoints(this.driver, tenantId);
  }
  updateEndpoint(tenantId: string, id: string, patch: EndpointPatch, now: number) {
    return catalog.updateEndpoint(this.driver, tenantId, id, patch, now);
  }
  deleteEndpoint(tenantId: string, id: string) {
    return catalog.deleteEndpoint(this.driver, tenantId, id);
  }
  listSecrets(endpointId: string) {
    return catalog.listSecrets(this.driver, endpointId);
  }
  rotateSecret(endpointId: string, secret: SealedSecret, retireAt: number, now: number) {
    return catalog.rotateSecret(this.driver, endpointId, secret, retireAt, now);
  }
  getEndpointEgress(endpointId: string) {
    return egress.getEndpointEgress(this.driver, endpointId);
  }
  setEndpointEgress(endpointId: string, row: EndpointEgress | null, now: number) {
    return egress.setEndpointEgress(this.driver, endpointId, row, now);
  }
  listExpiringCertificates(before: number, limit: number) {
    return egress.listExpiringCertificates(this.driver, before, limit);
  }
  markCertificateNotified(endpointId: string, expiresAt: number, notice: Omit<Notice, 'environment' | 'resolvedAt'>) {
    return egress.markCertificateNotified(this.driver, endpointId, expiresAt, notice);
  }
  putEventType(row: EventTypeRow) {
    return catalog.putEventType(this.driver, row);
  }
  getEventType(name: string) {
    return catalog.getEventType(this.driver, name);
  }
  listEventTypes() {
    return catalog.listEventTypes(this.driver);
  }

  // events
  /** A dialect's override point (PostgresStore: one multi-row insert per table). */
  acceptEvents(batch: NewEvent[], limits?: IngestLimits): Promise<AcceptResult[]> {
    return events.acceptEvents(this.driver, batch, this.capsAcrossWorkers, limits);
  }
  getEvent(tenantId: string, eventId: string) {
    return events.getEvent(this.driver, tenantId, eventId);
  }

  scanEvents(scan: EventScan) {
    return events.scanEvents(this.driver, scan);
  }

  eventDeliveryStatuses(tenantId: string, eventPks: string[]) {
    return events.eventDeliveryStatuses(this.driver, tenantId, eventPks);
  }

  countEventsUpTo(tenantId: string, type: string | null, cap: number) {
    return events.countEventsUpTo(this.driver, tenantId, type, cap);
  }

  eventIdOf(tenantId: string, id: string) {
    return events.eventIdOf(this.driver, tenantId, id);
  }

  // the delivery queue
  claimDue(o: ClaimOptions): Promise<ClaimedDelivery[]> {
    return queue.claimDue(this.driver, o, this.#readClaimed);
  }
  /** What a worker needs for the deliveries it just leased; a dialect's override point (SqliteSqlStore). */
  protected claimedDeliveries(tx: SqlExecutor, ids: string[]): Promise<ClaimedDelivery[]> {
    return queue.claimedDeliveries(tx, ids);
  }
  recordAttempts(records: AttemptRecord[], now: number) {
    return record.recordAttempts(this.driver, this.#record, records, now);
  }
  /**
   * Finishes every record's delivery and inserts every attempt of a batch at once, or returns null to have
   * recordAttempts do it one record at a time (finish-attempt, insert-attempt). The map holds the deliveries that
   * finished (the lease still held), by id. Overridden per dialect (sqlite/sqlite-sql-store.ts, postgres-store.ts).
   */
  protected async finishBatch(
    _tx: SqlExecutor,
    _records: readonly AttemptRecord[],
    _now: number,
  ): Promise<Map<string, FinishedRow> | null> {
    return null;
  }
  /** A dialect's batched promote of the keys a record transaction ended a delivery of (RecordDialect.promoteKeys). */
  protected promoteKeys?(
    tx: SqlExecutor,
    keys: ReadonlyArray<{ endpointId: string; key: string }>,
    now: number,
  ): Promise<void>;
  recordTestAttempt(attempt: Attempt, health: AttemptRecord['health'], now: number, workerId?: string) {
    return record.recordTestAttempt(this.driver, attempt, health, now, workerId);
  }
  holdDeliveries(ids: string[], workerId: string, until: number, now: number) {
    return queue.holdDeliveries(this.driver, ids, workerId, until, now);
  }
  endDeliveries(
    ids: string[],
    workerId: string | null,
    status: 'failed' | 'skipped',
    reason: string,
    now: number,
    options?: { summarise?: boolean },
  ) {
    return queue.endDeliveries(this.driver, this.capsAcrossWorkers, ids, workerId, status, reason, now, options);
  }
  releaseLeases(ids: string[], workerId: string, now: number) {
    return queue.releaseLeases(this.driver, ids, workerId, now);
  }
  releaseExpiredLeases(now: number) {
    return queue.releaseExpiredLeases(this.driver, now);
  }
  releaseAllLeases(now: number) {
    return queue.releaseAllLeases(this.driver, now);
  }
  existingEndpoints(ids: readonly string[]) {
    return queue.existingEndpoints(this.driver, ids);
  }
  nextDueAt() {
    return queue.nextDueAt(this.driver);
  }
  countInFlight(endpointId: string) {
    return queue.countInFlight(this.driver, endpointId);
  }
  retryDelivery(tenantId: string, id: string, now: number) {
    return queue.retryDelivery(this.driver, tenantId, id, now);
  }
  retryEndpointDeliveries(endpointId: string, now: number) {
    return queue.retryEndpointDeliveries(this.driver, endpointId, now);
  }
  findKeyHead(endpointId: string, orderingKey: string) {
    return queue.findKeyHead(this.driver, endpointId, orderingKey);
  }
  setEffectiveConcurrency(endpointId: string, value: number | null) {
    return queue.setEffectiveConcurrency(this.driver, endpointId, value);
  }

  // reporting
  getDelivery(tenantId: string, id: string) {
    return reporting.getDelivery(this.driver, tenantId, id);
  }
  listDeliveries(f: DeliveryFilter, cursor: string | null, limit: number) {
    return reporting.listDeliveries(this.driver, f, cursor, limit);
  }
  listAttempts(deliveryId: string) {
    return reporting.listAttempts(this.driver, deliveryId);
  }
  countByStatus() {
    return reporting.countByStatus(this.driver);
  }
  countQueued() {
    return reporting.countQueued(this.driver);
  }
  countBreakers() {
    return reporting.countBreakers(this.driver);
  }
  oldestDueAt(now: number) {
    return reporting.oldestDueAt(this.driver, now);
  }
  endpointStats(tenantId: string, since: number, now: number) {
    return reporting.endpointStats(this.driver, tenantId, since, now);
  }
  deliveriesPerMinute(tenantId: string, since: number) {
    return reporting.deliveriesPerMinute(this.driver, tenantId, since);
  }

  // replays
  createReplay(replay: ReplayRow) {
    return replays.createReplay(this.driver, replay);
  }
  getReplay(tenantId: string, id: string) {
    return replays.getReplay(this.driver, tenantId, id);
  }
  scheduleWindowReplay(replay: ReplayRow, limit: number, now: number, quota?: ReplayQuota) {
    return replays.scheduleWindowReplay(this.driver, replay, limit, now, quota);
  }
  scheduleSingleReplay(replay: ReplayRow, deliveryId: string, now: number) {
    return replays.scheduleSingleReplay(this.driver, replay, deliveryId, now);
  }
  reactivateWithCatchUp(
    tenantId: string,
    id: string,
    patch: EndpointPatch,
    replay: ReplayRow,
    limit: number,
    now: number,
    quota?: ReplayQuota,
  ) {
    return replays.reactivateWithCatchUp(this.driver, tenantId, id, patch, replay, limit, now, quota);
  }
  dismissDelivery(tenantId: string, id: string, now: number) {
    return replays.dismissDelivery(this.driver, tenantId, id, now);
  }

  // breakers and health
  getBreaker(scopeKey: string) {
    return breakers.getBreaker(this.driver, scopeKey);
  }
  saveBreaker(row: BreakerRow, expectedUpdatedAt: number | null, notify?: OutboxEntry | null) {
    return breakers.saveBreaker(this.driver, row, expectedUpdatedAt, notify);
  }
  breakerWindow(scopeKey: string, since: number) {
    return breakers.breakerWindow(this.driver, scopeKey, since);
  }
  resetBreakerWindow(scopeKey: string) {
    return breakers.resetBreakerWindow(this.driver, scopeKey);
  }
  releaseHeld(scope: { tenantId: string } | { endpointId: string }, now: number) {
    return breakers.releaseHeld(this.driver, scope, now);
  }
  listBreakers(tenantId: string) {
    return breakers.listBreakers(this.driver, tenantId);
  }
  listEndpointsFailingSince(failingBefore: number) {
    return breakers.listEndpointsFailingSince(this.driver, failingBefore);
  }
  pauseFailingEndpoint(endpointId: string, failingSince: number, now: number) {
    return breakers.pauseFailingEndpoint(this.driver, endpointId, failingSince, now);
  }

  // outbox and notices
  addNotice(notice: Omit<Notice, 'environment' | 'resolvedAt'>) {
    return outbox.addNotice(this.driver, notice);
  }
  listNotices(tenantId: string, cursor: string | null, limit: number) {
    return outbox.listNotices(this.driver, tenantId, cursor, limit);
  }
  claimOutbox(now: number, limit: number, leaseUntil: number) {
    return outbox.claimOutbox(this.driver, now, limit, leaseUntil);
  }
  finishOutbox(id: string, now: number) {
    return outbox.finishOutbox(this.driver, id, now);
  }
  retryOutbox(id: string, outcome: { dueAt: number } | { abandon: true }, error: string, now: number) {
    return outbox.retryOutbox(this.driver, id, outcome, error, now);
  }
  releaseOutboxLeases() {
    return outbox.releaseOutboxLeases(this.driver);
  }
  flushFailureSummaries(now: number, windowMs: number) {
    return outbox.flushFailureSummaries(this.driver, now, windowMs);
  }

  // retention
  purgeDeliveries(before: number, batch: number) {
    return retention.purgeDeliveries(this.driver, before, batch);
  }
  purgeEvents(before: number, batch: number) {
    return retention.purgeEvents(this.driver, before, batch);
  }
  purgeTenantUsage(before: number) {
    return retention.purgeTenantUsage(this.driver, before);
  }
  purgeDeliveryMinutes(before: number, batch: number) {
    return retention.purgeDeliveryMinutes(this.driver, before, batch);
  }
  purgeBreakerWindow(before: number) {
    return retention.purgeBreakerWindow(this.driver, before);
  }
  purgeOutbox(before: number) {
    return retention.purgeOutbox(this.driver, before);
  }
  purgePortalLinks(before: number) {
    return retention.purgePortalLinks(this.driver, before);
  }
  purgeIdempotencyKeys(now: number) {
    return retention.purgeIdempotencyKeys(this.driver, now);
  }

  // processes
  putProcess(record: ProcessRecord) {
    return processes.putProcess(this.driver, record);
  }
  touchProcess(processId: string, seenAt: number) {
    return processes.touchProcess(this.driver, processId, seenAt);
  }
  liveProcesses(since: number) {
    return processes.liveProcesses(this.driver, since);
  }
  removeProcess(processId: string, options?: { others?: boolean }) {
    return processes.removeProcess(this.driver, processId, options);
  }

  // audit
  audited(draft: AuditDraft, method: AuditedMethod, args: unknown[]): Promise<unknown> {
    return this.driver
      .transaction(async (tx) => {
        const before = await audit.snapshot(tx, draft.target);
        const result = await (this.#within(tx)[method] as (...a: unknown[]) => Promise<unknown>)(...args);
        // Nothing done: roll back whatever the write began (a catch-up's patch before its quota refusal) and record nothing.
        if (audit.nothingDone(result)) throw new audit.NothingDone(result);
        await audit.append(tx, draft, before, await audit.snapshot(tx, draft.target));
        return result;
      })
      .catch((err) => {
        if (err instanceof audit.NothingDone) return err.result;
        throw err;
      });
  }
  appendAudit(draft: AuditDraft) {
    return this.driver.transaction((tx) => audit.append(tx, draft, null, null));
  }
  listAudit(filter: AuditFilter, cursor: string | null, limit: number) {
    return audit.listAudit(this.driver, filter, cursor, limit);
  }
  auditChain(afterSeq: number, limit: number) {
    return audit.auditChain(this.driver, afterSeq, limit);
  }
  auditBounds() {
    return audit.auditBounds(this.driver);
  }
  purgeAudit(before: number, batch: number) {
    return this.driver.transaction((tx) => audit.purgeAudit(tx, before, batch));
  }

  /**
   * This store with every statement going to `tx`, and its transactions joining `tx`: an audited write runs its usual
   * code inside the audit entry's transaction. Only for the AUDITED_METHODS (none of them reads a private field).
   */
  #within(tx: SqlExecutor): SqlStore {
    const driver: SqlDriver = {
      dialect: this.driver.dialect,
      all: tx.all.bind(tx),
      run: tx.run.bind(tx),
      transaction: (fn) => fn(tx),
      migrate: () => Promise.reject(new Error('migrate inside a transaction')),
      ping: () => this.driver.ping(),
      close: () => Promise.reject(new Error('close inside a transaction')),
    };
    const scoped = Object.create(this) as SqlStore;
    Object.defineProperty(scoped, 'driver', { value: driver });
    return scoped;
  }
}
