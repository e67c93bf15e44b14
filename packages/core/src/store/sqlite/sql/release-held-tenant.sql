-- release-held-tenant: the breaker closed (or was reset): held deliveries are due now, and their held period ends now.
-- A delivery leased in memory (docs/rules.md#sqlite-leases) is in flight, not held: left alone.
-- params :tenant_id, :now
UPDATE deliveries SET status = 'pending', next_attempt_at = :now, held_until = :now, updated_at = :now WHERE status IN ('pending', 'held') AND status = 'held' AND tenant_id = :tenant_id
  AND NOT hookline_leased(id)
