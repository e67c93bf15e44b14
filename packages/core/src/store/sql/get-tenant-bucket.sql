-- get-tenant-bucket: the tenant's token bucket (read under lock-tenant-ingest when accepting).
-- params: :tenant_id
SELECT tokens, refilled_at FROM tenant_rate_buckets WHERE tenant_id = :tenant_id
