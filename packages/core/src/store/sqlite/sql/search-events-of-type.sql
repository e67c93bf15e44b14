-- search-events-of-type: search-events for one event type; by events_tenant_type (named: SQLite, planning without the
-- values, would otherwise walk events_tenant_id's range of every type).
-- params: :tenant_id, :type, :after_id (exclusive), :to_id (exclusive), :limit
SELECT * FROM events INDEXED BY events_tenant_type
WHERE tenant_id = :tenant_id AND type = :type AND id > :after_id AND id < :to_id
ORDER BY id LIMIT :limit
