-- search-events-of-type: search-events for one event type; by events_tenant_type (named: SQLite, planning without the
-- values, would otherwise walk events_tenant_id's range of every type).
-- params: :tenant_id, :type, :from_id (inclusive), :to_id (exclusive), :after_id, :limit
SELECT * FROM events INDEXED BY events_tenant_type
WHERE tenant_id = :tenant_id AND type = :type AND id >= :from_id AND id < :to_id AND id > :after_id
ORDER BY id LIMIT :limit
