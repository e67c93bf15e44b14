-- release-held-endpoint: the breaker closed (or was reset): held deliveries are due now, and their held period ends now.
-- A delivery leased meanwhile (in memory on SQLite: docs/rules.md#sqlite-leases) is in flight, not held: left alone.
-- params :endpoint_id, :now
UPDATE deliveries SET status = 'pending', next_attempt_at = :now, held_until = :now, updated_at = :now WHERE endpoint_id = :endpoint_id AND status = 'held' AND NOT hookline_leased(id)
