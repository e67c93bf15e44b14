// The events part of the store: accepting events with their deliveries in one transaction, reading one back, and the
// bounded batch reads an event search pages through (docs/api.md#event-search).
import type { Delivery, EventRecord } from '../../domain.ts';
import type { IngestLimitValues, IngestRefusal } from '../../pacing/tenant-admission.ts';

export interface NewEvent {
  event: EventRecord;
  bodyHash: string;
  /** Deliveries to create with the event, in the same transaction. */
  deliveries: Array<{
    id: string;
    endpointId: string;
    status: 'pending' | 'skipped';
    nextAttemptAt: number | null;
    /** The event's ordering key, set when this endpoint orders by key: the delivery is numbered next in the key's order. */
    orderingKey?: string;
    /** Inserted already leased (`delivering`) by this worker until then: a test delivery its sender sends at once. */
    lease?: { workerId: string; until: number };
  }>;
}

export type AcceptResult =
  | { kind: 'created'; event: EventRecord; deliveries: Delivery[] }
  | { kind: 'existing'; event: EventRecord; deliveries: Delivery[] }
  | { kind: 'conflict'; eventId: string }
  /** Refused by its tenant's limits (docs/rules.md#tenant-limits): nothing of it was stored. */
  | ({ kind: 'limited'; eventId: string } & IngestRefusal);

/** Accepting under the tenants' limits (docs/rules.md#tenant-limits): the ingest path passes these; other writers do not. */
export interface IngestLimits {
  now: number;
  /** The configured defaults, for a tenant whose own limit is null. */
  defaults: IngestLimitValues;
}

/**
 * One bounded batch of a tenant's events, in the order a search pages through them. `id`: by id (accept order), from
 * the window's id range, after `afterId` and before `toId` (both exclusive), only `type` when given. `event_id`:
 * the events whose event_id is at least `fromEventId`, in byte order of event_id, after `afterEventId` ('' for none);
 * the caller stops at the first that no longer starts with its prefix and checks type and window itself.
 */
export type EventScan =
  | { order: 'id'; tenantId: string; type: string | null; afterId: string; toId: string; limit: number }
  | { order: 'event_id'; tenantId: string; fromEventId: string; afterEventId: string; limit: number };

/** One delivery of a listed event, as a search shows it beside the event. */
export interface EventDeliveryStatus {
  eventPk: string;
  deliveryId: string;
  endpointId: string;
  status: Delivery['status'];
  attemptCount: number;
}

export interface EventStore {
  /**
   * Each NewEvent is inserted with its deliveries, all in one durable transaction. With `limits`, each tenant's new
   * events are admitted under its limits in the same transaction (the refused ones are `limited`, not stored) and
   * counted into its day.
   */
  acceptEvents(events: NewEvent[], limits?: IngestLimits): Promise<AcceptResult[]>;
  getEvent(tenantId: string, eventId: string): Promise<{ event: EventRecord; deliveries: Delivery[] } | null>;
  /** At most `scan.limit` events; PostgreSQL reads them on its own small pool under a statement timeout. */
  scanEvents(scan: EventScan): Promise<EventRecord[]>;
  /** The deliveries of these events (by internal id) of the tenant, in one read, ordered by event then delivery. */
  eventDeliveryStatuses(tenantId: string, eventPks: string[]): Promise<EventDeliveryStatus[]>;
  /** The tenant's events (of `type`, when given), counted up to `cap + 1` at most: enough to say "more than cap". */
  countEventsUpTo(tenantId: string, type: string | null, cap: number): Promise<number>;
  /** The event_id of the tenant's event with this internal id, or null: where an `after=` id resumes a prefix scan. */
  eventIdOf(tenantId: string, id: string): Promise<string | null>;
}
