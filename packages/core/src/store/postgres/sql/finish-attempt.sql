-- finish-attempt: the delivery's state after an attempt, only while this worker still holds the lease.
-- params: :id, :worker, :status, :ladder, :next_attempt_at, :terminal_reason, :fast_failures, :slow_failures,
--         :slow_started_at, :first_attempt_at, :last_attempt_at, :now
UPDATE deliveries
SET status = :status, ladder = coalesce(:ladder, ladder), next_attempt_at = :next_attempt_at,
    terminal_reason = :terminal_reason, fast_failures = :fast_failures, slow_failures = :slow_failures,
    slow_started_at = :slow_started_at, first_attempt_at = :first_attempt_at, last_attempt_at = :last_attempt_at,
    attempt_count = attempt_count + 1, lease_until = NULL, leased_by = NULL, replay_id = NULL, updated_at = :now
WHERE id = :id AND status = 'delivering' AND leased_by = :worker
RETURNING id
