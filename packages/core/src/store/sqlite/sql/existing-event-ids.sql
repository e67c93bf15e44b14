-- existing-event-ids: which of a tenant's event ids are already accepted (an idempotent replay is not charged).
-- params: :tenant_id, :event_ids (JSON array)
SELECT event_id FROM events WHERE tenant_id = :tenant_id AND event_id IN (SELECT value FROM json_each(:event_ids))
