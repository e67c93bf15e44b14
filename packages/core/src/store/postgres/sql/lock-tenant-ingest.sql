-- lock-tenant-ingest: params :tenant_id — serialises a limited tenant's accepts until commit, across API processes,
-- so its bucket, today's count and which of its events exist cannot go stale (docs/rules.md#tenant-limits)
SELECT pg_advisory_xact_lock(hashtextextended('hookline.ingest:' || :tenant_id, 0)) IS NULL AS locked
