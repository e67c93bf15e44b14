-- put-breaker-delivery: a delivery counts once in its scope's window, by its latest attempt (a lease serialises
-- a delivery's attempts, so the last recorded is the latest). params :scope_key, :delivery_id, :attempted_at, :failed
INSERT INTO breaker_deliveries (scope_key, delivery_id, attempted_at, failed) VALUES (:scope_key, :delivery_id, :attempted_at, :failed)
ON CONFLICT (scope_key, delivery_id) DO UPDATE SET attempted_at = excluded.attempted_at, failed = excluded.failed
