-- search-events-of-type: search-events for one event type; served by events_tenant_type.
-- params: :tenant_id, :type, :after_id (exclusive), :to_id (exclusive), :limit
SELECT * FROM events
WHERE tenant_id = :tenant_id AND type = :type AND id > :after_id AND id < :to_id
ORDER BY id LIMIT :limit
