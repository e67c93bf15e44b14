-- 023_event_search: the indexes the event search pages through (docs/api.md#event-search): a tenant's events in id
-- (accept) order (by type: events_tenant_type, 020), and a tenant's event_ids in byte order (COLLATE "C"), so a
-- prefix is one contiguous range whatever the database's collation.
CREATE INDEX events_tenant_id ON events (tenant_id, id);
CREATE INDEX events_tenant_event_id_c ON events (tenant_id, event_id COLLATE "C");
