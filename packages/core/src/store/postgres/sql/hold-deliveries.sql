-- hold-deliveries: a leased delivery waits on an open breaker; no attempt is spent.
-- params: :ids (text[]), :worker, :until, :now
UPDATE deliveries SET status = 'held', next_attempt_at = :until, lease_until = NULL, leased_by = NULL, updated_at = :now
WHERE id = ANY(:ids::text[]) AND status = 'delivering' AND leased_by = :worker
