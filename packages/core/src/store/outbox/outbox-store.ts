// The outbox-and-notices part of the store: the notification outbox the drainer leases, and the tenants' notices.
import type { Environment } from '../../domain.ts';
import type { Page } from '../page.ts';

export interface Notice {
  id: string;
  tenantId: string;
  /** The tenant's environment, read from the tenant (a notice stores none of its own). */
  environment: Environment;
  kind: string;
  subjectId: string | null;
  message: string;
  data: Record<string, unknown>;
  createdAt: number;
  /** A degraded or paused notice: when its incident ended (docs/rules.md#notifications); null while open, and for other kinds. */
  resolvedAt: number | null;
}

/**
 * What the owners are told about (docs/rules.md#notifications); `deliveries.failed` is a per-endpoint summary,
 * `quota.*` a tenant's daily event quota at 80 % and 100 % (docs/rules.md#tenant-limits).
 */
export type OutboxKind =
  | 'endpoint.degraded'
  | 'endpoint.paused'
  | 'endpoint.recovered'
  | 'breaker.opened'
  | 'breaker.closed'
  | 'deliveries.failed'
  | 'quota.warning'
  | 'quota.reached';

/** A notification written in the transaction of the transition that causes it; its id is the notice's and the operational event's. */
export interface OutboxEntry {
  id: string;
  tenantId: string;
  kind: OutboxKind;
  /** The endpoint, breaker scope or endpoint whose deliveries failed. */
  subjectId: string | null;
  /** The endpoint involved: an operational event about the operations endpoint is never sent through it. */
  endpointId: string | null;
  data: Record<string, unknown>;
  createdAt: number;
}

/** An outbox row as the drainer claims it. */
export interface OutboxRow extends OutboxEntry {
  status: 'pending' | 'sent' | 'abandoned';
  /** Sends tried before this one. */
  tries: number;
  dueAt: number;
  leaseUntil: number | null;
  lastError: string | null;
}

export interface OutboxStore {
  // notices
  /**
   * Idempotent by id: a notification sent again after a crash is listed once. An endpoint.recovered notice ends its
   * incident and resolves the incident's notices; one written after its incident ended is written resolved.
   */
  addNotice(notice: Omit<Notice, 'environment' | 'resolvedAt'>): Promise<void>;
  listNotices(tenantId: string, cursor: string | null, limit: number): Promise<Page<Notice>>;

  // the notification outbox (docs/rules.md#notifications): rows are written by the transitions' own transactions
  /** Leases up to `limit` due pending rows until `leaseUntil` (PostgreSQL: FOR UPDATE SKIP LOCKED), oldest due first. */
  claimOutbox(now: number, limit: number, leaseUntil: number): Promise<OutboxRow[]>;
  /** Marks a row sent; false when it was not pending (another worker finished it first). */
  finishOutbox(id: string, now: number): Promise<boolean>;
  /** A failed send: due again at `dueAt`, or `abandoned` for good; the error is kept. */
  retryOutbox(id: string, outcome: { dueAt: number } | { abandon: true }, error: string, now: number): Promise<void>;
  /** Hands back every outbox lease (a store with one worker process, SQLite: they are a dead predecessor's). */
  releaseOutboxLeases(): Promise<number>;
  /** Turns each endpoint's failures due a summary at `now` (docs/rules.md#notifications) into a `deliveries.failed` row; the count. */
  flushFailureSummaries(now: number, windowMs: number): Promise<number>;
}
