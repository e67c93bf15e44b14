// The Svix part of the store: what the Svix-compatible API (docs/svix-compatibility.md) keeps beside Hookline's
// rows — caller-chosen uids and metadata, an endpoint's channels, a message's labels, a message by Hookline's id,
// one more delivery of an event (resend), and idempotency records.
import type { Delivery, Endpoint, EventRecord, Metadata, PayloadFormat, Tenant } from '../../domain.ts';
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

export interface SvixStore {
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
