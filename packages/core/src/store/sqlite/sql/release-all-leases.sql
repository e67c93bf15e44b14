-- release-all-leases: a SQLite file has one worker process, so when it starts every lease on the file is its dead
-- predecessor's: due again at once, not after the lease.
-- params: :now
UPDATE deliveries SET status = 'pending', next_attempt_at = :now, lease_until = NULL, leased_by = NULL, updated_at = :now
WHERE status = 'delivering'
