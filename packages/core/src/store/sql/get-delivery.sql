-- get-delivery: params :tenant_id, :id
SELECT d.*, ev.event_id AS ev_event_id, ev.type AS ev_type FROM deliveries d JOIN events ev ON ev.id = d.event_pk
WHERE d.tenant_id = :tenant_id AND d.id = :id
