// An event as ingest accepts it and as it is read back (with its envelope), and their JSON Schemas.
import type { EventRecord } from '@hookline/core';
import { named } from '../../http/schema-names.ts';
import { bool, iso, nullableStr, obj, str, time } from '../../http/views.ts';

const eventFields = {
  id: str,
  event_id: str,
  type: str,
  version: str,
  occurred_at: str,
  is_money: bool,
  ordering_key: nullableStr,
  created_at: time,
};
/** An accepted event as ingest answers it: the caller sent the data, so the envelope is not echoed back. */
export const AcceptedEventSchema = named('AcceptedEvent', obj(eventFields));
export const EventSchema = named(
  'Event',
  obj({ ...eventFields, payload: { description: 'The exact envelope every attempt sends, as JSON.' } }),
);
export const acceptedEventView = (e: EventRecord) => ({
  id: e.id,
  event_id: e.eventId,
  type: e.type,
  version: e.version,
  occurred_at: e.occurredAt,
  is_money: e.isMoney,
  ordering_key: e.orderingKey ?? null,
  created_at: iso(e.createdAt),
});
export const eventView = (e: EventRecord) => ({
  ...acceptedEventView(e),
  payload: JSON.parse(e.body.toString('utf8')) as unknown,
});
