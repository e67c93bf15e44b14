-- release-leases: a stopping worker hands back leased deliveries it never started; due again at their old time.
-- params: :ids (text[]), :worker, :now
UPDATE deliveries SET status = 'pending', lease_until = NULL, leased_by = NULL, updated_at = :now
WHERE id = ANY(:ids::text[]) AND status = 'delivering' AND leased_by = :worker
