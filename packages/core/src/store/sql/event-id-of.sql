-- event-id-of: the event_id of a tenant's event by internal id.
-- params: :tenant_id, :id
SELECT event_id FROM events WHERE id = :id AND tenant_id = :tenant_id
