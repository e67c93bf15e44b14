-- search-events-of-type: search-events for one event type; served by events_tenant_type.
-- params: :tenant_id, :type, :from_id (inclusive), :to_id (exclusive), :after_id, :limit
SELECT * FROM events
WHERE tenant_id = :tenant_id AND type = :type AND id >= :from_id AND id < :to_id AND id > :after_id
ORDER BY id LIMIT :limit
