// A delivery as the API answers it, alone or with its payload and every attempt, and their JSON Schemas.
import { DELIVERY_STATUSES, type Delivery, type Environment } from '@hookline/core';
import { named } from '../../http/schema-names.ts';
import {
  bool,
  environment,
  int,
  iso,
  nullableInt,
  nullableStr,
  nullableTime,
  obj,
  str,
  time,
} from '../../http/views.ts';
import { AttemptSchema } from './attempt-view.ts';

type Schema = Record<string, unknown>;

export const DeliverySchema = named(
  'Delivery',
  obj({
    id: str,
    environment,
    event_id: str,
    event_type: str,
    endpoint_id: str,
    status: { type: 'string', enum: [...DELIVERY_STATUSES] },
    ladder: str,
    is_money: bool,
    attempt_count: int,
    first_attempt_at: nullableTime,
    last_attempt_at: nullableTime,
    next_attempt_at: nullableTime,
    terminal_reason: nullableStr,
    ordering_key: { ...nullableStr, description: "Set when the endpoint orders by key: the event's ordering_key." },
    ordering_seq: { ...nullableInt, description: "The delivery's place in its key's order on the endpoint (1, 2, …)." },
    dismissed_at: { ...nullableTime, description: 'A failed delivery dismissed so it no longer holds its key.' },
    held_since: {
      ...nullableTime,
      description: 'While held (breaker open): when its current held period began; its next attempt records it.',
    },
    created_at: time,
    updated_at: time,
  }),
);
/** A delivery of a tenant in `environment` (a delivery stores none of its own: it is its tenant's). */
export const deliveryView = (d: Delivery, environment: Environment) => ({
  id: d.id,
  environment,
  event_id: d.eventId,
  event_type: d.eventType,
  endpoint_id: d.endpointId,
  status: d.status,
  ladder: d.ladder,
  is_money: d.isMoney,
  attempt_count: d.attemptCount,
  first_attempt_at: iso(d.firstAttemptAt),
  last_attempt_at: iso(d.lastAttemptAt),
  next_attempt_at: iso(d.nextAttemptAt),
  terminal_reason: d.terminalReason,
  ordering_key: d.orderingKey ?? null,
  ordering_seq: d.orderingSeq ?? null,
  dismissed_at: iso(d.dismissedAt ?? null),
  held_since: iso(d.heldSince ?? null),
  created_at: iso(d.createdAt),
  updated_at: iso(d.updatedAt),
});

const LastResponseSchema = named(
  'LastResponse',
  obj({ status: nullableInt, excerpt: nullableStr, error: nullableStr }),
);

/** A delivery in a list: its latest attempt's answer beside it, so the dead letter shows what the receiver said. */
export const DeliveryListItemSchema: Schema = named('DeliveryListItem', {
  allOf: [
    DeliverySchema,
    obj({
      last_response: {
        description:
          "The latest attempt's answer (docs/rules.md#dead-letter): HTTP status, the first bytes of the body, or the error when there was no answer; null before any attempt.",
        oneOf: [{ type: 'null' }, LastResponseSchema],
      },
    }),
  ],
});
export const deliveryListView = (d: Delivery, environment: Environment) => ({
  ...deliveryView(d, environment),
  last_response: d.lastResponse ?? null,
});

export const DeliveryDetailSchema: Schema = named('DeliveryDetail', {
  ...DeliverySchema,
  required: [...(DeliverySchema.required as string[]), 'payload', 'attempts'],
  properties: {
    ...(DeliverySchema.properties as object),
    payload: { description: 'The exact envelope every attempt sends, as JSON.' },
    attempts: { type: 'array', items: AttemptSchema },
  },
});
