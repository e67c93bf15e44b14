-- search-events: one batch of a tenant's events in id (accept) order, inside a window's id range from a keyset id (one
-- lower bound: with two SQLite started each batch at the window's start, a walk that grew with every page);
-- served by events_tenant_id (023).
-- params: :tenant_id, :after_id (exclusive: the keyset, or below the window's first id), :to_id (exclusive), :limit
SELECT * FROM events
WHERE tenant_id = :tenant_id AND id > :after_id AND id < :to_id
ORDER BY id LIMIT :limit
