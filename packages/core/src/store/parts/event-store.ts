// The events part of the store: accepting events with their deliveries in one transaction, and reading one back.
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

export interface EventStore {
  /**
   * Each NewEvent is inserted with its deliveries, all in one durable transaction. With `limits`, each tenant's new
   * events are admitted under its limits in the same transaction (the refused ones are `limited`, not stored) and
   * counted into its day.
   */
  acceptEvents(events: NewEvent[], limits?: IngestLimits): Promise<AcceptResult[]>;
  getEvent(tenantId: string, eventId: string): Promise<{ event: EventRecord; deliveries: Delivery[] } | null>;
}
