// The events part of the store: accepting events with their deliveries in one transaction, and reading one back.
import type { Delivery, EventRecord } from '../../domain.ts';

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
  | { kind: 'conflict'; eventId: string };

export interface EventStore {
  /** Each NewEvent is inserted with its deliveries, all in one durable transaction. */
  acceptEvents(events: NewEvent[]): Promise<AcceptResult[]>;
  getEvent(tenantId: string, eventId: string): Promise<{ event: EventRecord; deliveries: Delivery[] } | null>;
}
