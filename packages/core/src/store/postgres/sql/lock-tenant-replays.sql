-- lock-tenant-replays: params :tenant_id — serialises one tenant's window replays until commit (the quota count stays exact)
SELECT pg_advisory_xact_lock(hashtextextended('hookline.replays:' || :tenant_id, 0)) IS NULL AS locked
