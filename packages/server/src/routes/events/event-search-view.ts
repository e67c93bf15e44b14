// An event as a search lists and exports it: the event with its envelope and its deliveries' statuses.
import { DELIVERY_STATUSES, type EventSearchHit } from '@hookline/core';
import { named } from '../../http/schema-names.ts';
import { int, obj, str } from '../../http/views.ts';
import { EventSchema, eventView } from './event-view.ts';

const EventDeliveryStatusSchema = named(
  'EventDeliveryStatus',
  obj({
    id: str,
    endpoint_id: str,
    status: { type: 'string', enum: [...DELIVERY_STATUSES] },
    attempts: int,
  }),
);

export const EventSearchItemSchema = named('EventSearchItem', {
  ...EventSchema,
  required: [...(EventSchema as { required: string[] }).required, 'deliveries'],
  properties: {
    ...(EventSchema as { properties: Record<string, unknown> }).properties,
    deliveries: {
      type: 'array',
      items: EventDeliveryStatusSchema,
      description: "Each delivery's endpoint and status.",
    },
  },
});

export const eventSearchView = (h: EventSearchHit) => ({
  ...eventView(h.event),
  deliveries: h.deliveries.map((d) => ({
    id: d.deliveryId,
    endpoint_id: d.endpointId,
    status: d.status,
    attempts: d.attemptCount,
  })),
});
