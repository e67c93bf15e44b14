-- release-held-tenant: params :tenant_id, :now
UPDATE deliveries SET status = 'pending', next_attempt_at = :now, updated_at = :now WHERE tenant_id = :tenant_id AND status = 'held'
