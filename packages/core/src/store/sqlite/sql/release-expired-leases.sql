-- release-expired-leases: a worker died or stalled; its leased deliveries become due again.
-- params: :now
UPDATE deliveries SET status = 'pending', next_attempt_at = :now, lease_until = NULL, leased_by = NULL, updated_at = :now
WHERE status = 'delivering' AND lease_until < :now
