-- 020_list_indexes: every list the API and console page through (newest first, keyset on id) has an index that
-- serves its filter, so a page costs the same with ten million deliveries kept as with ten thousand
-- (test: core/test/store.plans.postgres.test.ts). Without them a filter by status, endpoint or time walked the
-- tenant's rows newest first until a page matched: 159 ms for the dead letter (status = failed) with none failed.
-- Not for succeeded, most rows' final state: a page of those is near the newest rows anyway, and the index then costs
-- nothing when a delivery ends well.
CREATE INDEX deliveries_tenant_status ON deliveries (tenant_id, status, id) WHERE status <> 'succeeded';
CREATE INDEX deliveries_endpoint_id ON deliveries (endpoint_id, id);
CREATE INDEX deliveries_tenant_created ON deliveries (tenant_id, created_at);
CREATE INDEX events_tenant_type ON events (tenant_id, type, id);
