-- finish-attempt: the delivery's state after an attempt, only while this worker still holds the lease it made the
-- attempt under (attempt_count unchanged since the claim). A retried commit that did land the first time, or a
-- record of a delivery deleted meanwhile, changes nothing. The ordering key tells whether the key's next one is due now.
-- The held period is cleared and returned as it was (`held`: the row locked before the change), for insert-attempt.
-- params: :id, :worker, :attempt_count (the count the attempt was made at), :status, :ladder, :next_attempt_at,
--         :terminal_reason, :fast_failures, :slow_failures, :slow_started_at, :first_attempt_at, :last_attempt_at, :now
UPDATE deliveries d
SET status = :status, ladder = coalesce(:ladder, d.ladder), next_attempt_at = :next_attempt_at,
    terminal_reason = :terminal_reason, fast_failures = :fast_failures, slow_failures = :slow_failures,
    slow_started_at = :slow_started_at, first_attempt_at = :first_attempt_at, last_attempt_at = :last_attempt_at,
    attempt_count = d.attempt_count + 1, lease_until = NULL, leased_by = NULL, replay_id = NULL, held_since = NULL,
    held_until = NULL, updated_at = :now
FROM (
  SELECT id, held_since, held_until FROM deliveries
  WHERE id = :id AND status = 'delivering' AND leased_by = :worker AND attempt_count = :attempt_count
  FOR NO KEY UPDATE
) held
WHERE d.id = held.id
RETURNING d.id, d.ordering_key, held.held_since, held.held_until
