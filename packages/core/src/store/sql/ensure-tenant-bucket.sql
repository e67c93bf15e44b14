-- ensure-tenant-bucket: a rate-limited tenant's first accept creates its bucket full.
-- params: :tenant_id, :tokens, :now
INSERT INTO tenant_rate_buckets (tenant_id, tokens, refilled_at) VALUES (:tenant_id, :tokens, :now)
ON CONFLICT (tenant_id) DO NOTHING
