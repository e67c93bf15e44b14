-- 023_event_search: the indexes the event search pages through (docs/api.md#event-search): a tenant's events in id
-- (accept) order, all or of one type, so a page reads only the rows it returns. A prefix of event_id pages through
-- the (tenant_id, event_id) unique index the table already has (BINARY collation: byte order).
CREATE INDEX events_tenant_id ON events (tenant_id, id);
CREATE INDEX events_tenant_type ON events (tenant_id, type, id);
