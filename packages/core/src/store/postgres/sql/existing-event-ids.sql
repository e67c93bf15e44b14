-- existing-event-ids: which of a tenant's event ids are already accepted (an idempotent replay is not charged).
-- params: :tenant_id, :event_ids (text[])
SELECT event_id FROM events WHERE tenant_id = :tenant_id AND event_id = ANY(:event_ids::text[])
