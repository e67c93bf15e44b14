// The reporting part of the store: reads of deliveries and attempts, counts for metrics, per-endpoint stats.
import type { Attempt, Delivery, DeliveryStatus, EndpointStatus } from '../../domain.ts';
import type { Page } from '../page.ts';

export interface DeliveryFilter {
  tenantId: string;
  status?: DeliveryStatus;
  endpointId?: string;
  eventType?: string;
  /** The producer's event id (the event's `event_id`). */
  eventId?: string;
  /** Inclusive bounds on created_at (ms). */
  since?: number;
  until?: number;
}

/** One endpoint's queue and recent outcomes (GET …/stats). */
export interface EndpointStats {
  endpointId: string;
  endpointStatus: EndpointStatus;
  queued: { pending: number; delivering: number; held: number };
  oldestDueAt: number | null;
  /** Deliveries that ended so by an attempt in the window (the per-minute counters, docs/rules.md#stats-counters). */
  succeeded: number;
  failed: number;
  /** Every attempt in the window: their total duration and how many. */
  latencyMsSum: number;
  latencyCount: number;
}

export interface ReportingStore {
  getDelivery(tenantId: string, id: string): Promise<Delivery | null>;
  listDeliveries(filter: DeliveryFilter, cursor: string | null, limit: number): Promise<Page<Delivery>>;
  listAttempts(deliveryId: string): Promise<Attempt[]>;
  countByStatus(): Promise<Record<DeliveryStatus, number>>;
  /** Deliveries not yet terminal (pending, delivering, held), from indexes only: what metrics scrapes read. */
  countQueued(): Promise<Record<'pending' | 'delivering' | 'held', number>>;
  /** Breakers open and probing over every tenant. */
  countBreakers(): Promise<{ open: number; probing: number }>;
  /** The earliest `next_attempt_at` of a pending delivery due at `now` (null: nothing due waits). */
  oldestDueAt(now: number): Promise<number | null>;
  /**
   * Per endpoint of the tenant, oldest id first: its queue, its oldest due delivery, and from the per-minute counters
   * what ended (and every attempt's duration) from the first whole minute at or after `since`.
   */
  endpointStats(tenantId: string, since: number, now: number): Promise<EndpointStats[]>;
  /**
   * The tenant's per-minute counters (docs/rules.md#stats-counters) from the first whole minute at or after `since`:
   * deliveries that ended succeeded or failed, and failed attempts to be retried (`retrying`), by the epoch minute the
   * attempt started.
   */
  deliveriesPerMinute(
    tenantId: string,
    since: number,
  ): Promise<Array<{ minute: number; succeeded: number; retrying: number; failed: number }>>;
}
