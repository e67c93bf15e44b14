-- lock-tenant-endpoints: params :tenant_id — serialises a capped tenant's endpoint creations until commit, across
-- API processes, so the count against max_endpoints cannot go stale
SELECT pg_advisory_xact_lock(hashtextextended('hookline.endpoints:' || :tenant_id, 0)) IS NULL AS locked
