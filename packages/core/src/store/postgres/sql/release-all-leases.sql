-- release-all-leases: for a store with one worker process (SQLite); PostgreSQL's workers share the database, so
-- the engine never calls it there. Same meaning: every lease is orphaned, due again at once.
-- params: :now
UPDATE deliveries SET status = 'pending', next_attempt_at = :now, lease_until = NULL, leased_by = NULL, updated_at = :now
WHERE id IN (SELECT id FROM deliveries WHERE status = 'delivering' FOR UPDATE SKIP LOCKED)
