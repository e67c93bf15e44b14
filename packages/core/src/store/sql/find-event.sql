-- find-event: an event by the provider's id.
-- params: :tenant_id, :event_id
SELECT * FROM events WHERE tenant_id = :tenant_id AND event_id = :event_id
