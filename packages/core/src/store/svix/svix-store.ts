// The Svix part of the store: what the Svix-compatible API (docs/svix-compatibility.md) keeps beside Hookline's
// rows — caller-chosen uids and metadata, an endpoint's channels, a message's labels, a message by Hookline's id,
// one more delivery of an event (resend), and idempotency records.
import type {
  Attempt,
  Delivery,
  DeliveryStatus,
  Endpoint,
  EventRecord,
  Metadata,
  PayloadFormat,
  Tenant,
} from '../../domain.ts';
import type { Page } from '../page.ts';
import type { ReplayRow } from '../replays/replay-store.ts';

export interface TenantLabels {
  uid: string | null;
  metadata: Metadata;
  payloadFormat: PayloadFormat;
  appRateLimit: number | null;
}

export interface EndpointLabels {
  uid: string | null;
  metadata: Metadata;
  channels: string[] | null;
}

/** A message's channels and tags (null: none given). */
export interface MessageLabels {
  channels: string[] | null;
  tags: string[] | null;
}

export interface MessageFilter {
  /** Only these event types (exact names). */
  eventTypes?: string[];
  /** Only messages sent to this channel. */
  channel?: string;
  /** created_at ≥ since and < until (ms). */
  since?: number;
  until?: number;
}

/** The record of one idempotency key: `status` null while its first request still runs. */
export interface IdempotencyRecord {
  requestHash: string;
  status: number | null;
  body: string | null;
  createdAt: number;
  expiresAt: number;
}

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

export interface SvixStore extends MessageReadStore {
  findTenantByUid(uid: string): Promise<Tenant | null>;
  /** Sets every label of the tenant; false when there is no such tenant. A uid another tenant holds throws. */
  setTenantLabels(id: string, labels: TenantLabels, now: number): Promise<boolean>;
  findEndpointByUid(tenantId: string, uid: string): Promise<(Endpoint & { version: number }) | null>;
  /** Sets every label of the endpoint; false when the tenant has no such endpoint. A uid taken in the tenant throws. */
  setEndpointLabels(tenantId: string, id: string, labels: EndpointLabels, now: number): Promise<boolean>;
  /** An event by Hookline's own id (evt_…), with its deliveries. */
  getEventByPk(tenantId: string, pk: string): Promise<{ event: EventRecord; deliveries: Delivery[] } | null>;
  /** Keeps a message's labels beside its event (the first write wins, like the event's). */
  putMessageLabels(eventPk: string, tenantId: string, labels: MessageLabels): Promise<void>;
  getMessageLabels(eventPk: string): Promise<MessageLabels>;
  /** The tenant's events newest first, each with its labels; the cursor is the last id of the previous page. */
  listMessages(
    tenantId: string,
    filter: MessageFilter,
    cursor: string | null,
    limit: number,
  ): Promise<Page<{ event: EventRecord } & MessageLabels & { id: string }>>;
  /**
   * One more delivery of the event to the replay's endpoint, pending now, recorded with `replay` (a single replay) in
   * one transaction; false (nothing written) when the tenant has no such event.
   */
  addDelivery(replay: ReplayRow, eventPk: string, id: string, now: number): Promise<boolean>;
  /**
   * Claims `key` in `scope` for a request hashing to `requestHash`: `claimed` when this request is the first, the
   * previous record expired (`ttlMs` after its claim), or its request was abandoned (still unanswered `pendingMs`
   * after its claim: its process died); else the record that holds it.
   */
  claimIdempotencyKey(
    scope: string,
    key: string,
    requestHash: string,
    now: number,
    ttlMs: number,
    pendingMs: number,
  ): Promise<{ kind: 'claimed' } | { kind: 'held'; record: IdempotencyRecord }>;
  getIdempotencyKey(scope: string, key: string): Promise<IdempotencyRecord | null>;
  /** Keeps the first request's answer. */
  finishIdempotencyKey(scope: string, key: string, status: number, body: string): Promise<void>;
  /** Forgets a claim whose request ended without an answer worth keeping (a server error): a repeat runs again. */
  dropIdempotencyKey(scope: string, key: string): Promise<void>;
}
