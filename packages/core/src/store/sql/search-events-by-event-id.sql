-- search-events-by-event-id: one batch of a tenant's events in byte order of event_id, from a prefix, after a keyset
-- event_id ('' for none); served by the (tenant_id, event_id) unique index. The caller stops past its prefix.
-- params: :tenant_id, :from_event_id, :after_event_id, :limit
SELECT * FROM events
WHERE tenant_id = :tenant_id AND event_id >= :from_event_id AND event_id > :after_event_id
ORDER BY event_id LIMIT :limit
