-- release-leases: a stopping worker hands back leased deliveries it never started; due again at their old time.
-- params: :ids (JSON array), :worker, :now
UPDATE deliveries SET status = 'pending', lease_until = NULL, leased_by = NULL, updated_at = :now
WHERE id IN (SELECT value FROM json_each(:ids)) AND status = 'delivering' AND leased_by = :worker
