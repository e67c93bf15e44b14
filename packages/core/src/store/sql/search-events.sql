-- search-events: one batch of a tenant's events in id (accept) order, inside a window's id range, after a keyset id;
-- served by events_tenant_id (023).
-- params: :tenant_id, :from_id (inclusive), :to_id (exclusive), :after_id, :limit
SELECT * FROM events
WHERE tenant_id = :tenant_id AND id >= :from_id AND id < :to_id AND id > :after_id
ORDER BY id LIMIT :limit
