-- release-expired-leases: a worker died or stalled; its leased deliveries become due again.
-- SKIP LOCKED: a row some worker is finishing right now is not waited on (no deadlock with its commit); if its
-- lease is still expired afterwards, the next sweep takes it.
-- params: :now
UPDATE deliveries SET status = 'pending', next_attempt_at = :now, lease_until = NULL, leased_by = NULL, updated_at = :now
WHERE id IN (SELECT id FROM deliveries WHERE status = 'delivering' AND lease_until < :now FOR UPDATE SKIP LOCKED)
