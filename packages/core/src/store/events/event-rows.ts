// Row ↔ record mapping of an event, and the delivery records an accept returns for the rows it inserted.
import type { Delivery, EventRecord } from '../../domain.ts';
import { num, type Row } from '../row-values.ts';
import type { NewEvent } from './event-store.ts';

export function eventFromRow(r: Row): EventRecord {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    eventId: r.event_id,
    type: r.type,
    version: r.version,
    occurredAt: r.occurred_at,
    body: Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body),
    payloadFormat: r.payload_format ?? 'envelope',
    isMoney: Boolean(num(r.is_money)),
    orderingKey: r.ordering_key ?? null,
    traceparent: r.traceparent ?? null,
    tracestate: r.tracestate ?? null,
    createdAt: num(r.created_at),
  };
}

export function eventToRow(e: EventRecord, bodyHash: string): Row {
  return {
    id: e.id,
    tenant_id: e.tenantId,
    event_id: e.eventId,
    type: e.type,
    version: e.version,
    occurred_at: e.occurredAt,
    body: e.body,
    body_hash: bodyHash,
    payload_format: e.payloadFormat ?? 'envelope',
    is_money: e.isMoney ? 1 : 0,
    ordering_key: e.orderingKey ?? null,
    traceparent: e.traceparent ?? null,
    tracestate: e.tracestate ?? null,
    created_at: e.createdAt,
  };
}

/**
 * The record of a delivery just inserted with its event, as the accept returns it: nothing attempted yet. An ordered
 * delivery passes the place and due time its insert gave it.
 */
export function newDelivery(
  ev: EventRecord,
  d: NewEvent['deliveries'][number],
  ordered: { orderingSeq: number; nextAttemptAt: number | null } | null = null,
): Delivery {
  return {
    id: d.id,
    tenantId: ev.tenantId,
    eventPk: ev.id,
    eventId: ev.eventId,
    eventType: ev.type,
    endpointId: d.endpointId,
    status: d.lease ? 'delivering' : d.status,
    ladder: 'fast',
    isMoney: ev.isMoney,
    attemptCount: 0,
    fastFailures: 0,
    slowFailures: 0,
    slowStartedAt: null,
    firstAttemptAt: null,
    lastAttemptAt: null,
    nextAttemptAt: ordered ? ordered.nextAttemptAt : d.nextAttemptAt,
    leaseUntil: d.lease?.until ?? null,
    terminalReason: null,
    orderingKey: ordered ? d.orderingKey! : null,
    orderingSeq: ordered ? ordered.orderingSeq : null,
    dismissedAt: null,
    heldSince: null,
    heldUntil: null,
    createdAt: ev.createdAt,
    updatedAt: ev.createdAt,
  };
}
