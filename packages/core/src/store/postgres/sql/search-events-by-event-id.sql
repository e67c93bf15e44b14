-- search-events-by-event-id: one batch of a tenant's events in byte order of event_id (COLLATE "C", whatever the
-- database's collation, so a prefix is one contiguous range), from a prefix, after a keyset event_id ('' for none);
-- served by events_tenant_event_id_c (023). The caller stops past its prefix.
-- params: :tenant_id, :from_event_id, :after_event_id, :limit
SELECT * FROM events
WHERE tenant_id = :tenant_id AND event_id COLLATE "C" >= :from_event_id AND event_id COLLATE "C" > :after_event_id
ORDER BY event_id COLLATE "C" LIMIT :limit
