// The message reads of the Svix-compatible API (docs/svix-compatibility.md#messages), each one statement: a message's
// destinations and attempts, and an endpoint's deliveries with their messages or their attempts.
import type { Attempt, DeliveryStatus, Endpoint, EventRecord } from '../../domain.ts';
import type { MessageLabels } from './compat-store.ts';
import type { Page } from './page.ts';

/** One delivery's state, as the message reads show it (a delivery leased in memory reads `delivering`). */
export interface DeliveryState {
  deliveryId: string;
  status: DeliveryStatus;
  nextAttemptAt: number | null;
}

/** A message's delivery to one endpoint, with that endpoint. */
export type MessageDestination = DeliveryState & { endpoint: Endpoint };

/** An attempt with the message it sent and its endpoint's URL ('' once the endpoint is gone). */
export interface MessageAttempt {
  attempt: Attempt;
  eventPk: string;
  url: string;
}

/** An endpoint's delivery with its message. */
export type EndpointMessage = DeliveryState & { event: EventRecord } & MessageLabels;

/** Deliveries created within since ≤ created_at ≤ until (ms); either end open when absent. */
export interface DeliveryWindow {
  since?: number;
  until?: number;
}

export interface MessageReadStore {
  /** The event's deliveries, oldest first, each with its endpoint. */
  messageDestinations(tenantId: string, eventPk: string): Promise<MessageDestination[]>;
  /**
   * Every attempt of the event's deliveries (to `endpointId` only, when given): the newest delivery first, each
   * delivery's attempts newest first.
   */
  messageAttempts(tenantId: string, eventPk: string, endpointId: string | null): Promise<MessageAttempt[]>;
  /**
   * A page of the endpoint's deliveries in the window, newest first (the cursor is the last delivery's id), each with
   * its attempts newest first.
   */
  endpointAttempts(
    tenantId: string,
    endpointId: string,
    window: DeliveryWindow,
    cursor: string | null,
    limit: number,
  ): Promise<Page<{ id: string; attempts: MessageAttempt[] }>>;
  /** A page of the endpoint's deliveries in the window, newest first, each with its message (event and labels). */
  endpointMessages(
    tenantId: string,
    endpointId: string,
    window: DeliveryWindow,
    cursor: string | null,
    limit: number,
  ): Promise<Page<EndpointMessage & { id: string }>>;
}
