-- release-held-tenant: params :tenant_id, :now
UPDATE deliveries SET status = 'pending', next_attempt_at = :now, updated_at = :now WHERE status IN ('pending', 'held') AND status = 'held' AND tenant_id = :tenant_id
