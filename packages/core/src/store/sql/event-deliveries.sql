-- event-deliveries: the deliveries of one event, with the event's public fields.
-- params: :event_pk
SELECT d.*, ev.event_id AS ev_event_id, ev.type AS ev_type FROM deliveries d JOIN events ev ON ev.id = d.event_pk
WHERE d.event_pk = :event_pk ORDER BY d.id
