-- put-tenant-bucket: what an accept left in the tenant's bucket.
-- params: :tenant_id, :tokens, :refilled_at
UPDATE tenant_rate_buckets SET tokens = :tokens, refilled_at = :refilled_at WHERE tenant_id = :tenant_id
