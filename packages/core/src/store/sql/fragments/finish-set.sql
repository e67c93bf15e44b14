-- finish-set: a delivery's columns after an attempt (finish-attempt, and SQLite's finish-attempt-leased): the next
-- state the dispatcher decided, one more attempt, the lease and any held period cleared. Params as finish-attempt's.
status = :status, ladder = coalesce(:ladder, ladder), next_attempt_at = :next_attempt_at,
    terminal_reason = :terminal_reason, fast_failures = :fast_failures, slow_failures = :slow_failures,
    slow_started_at = :slow_started_at, first_attempt_at = :first_attempt_at, last_attempt_at = :last_attempt_at,
    attempt_count = attempt_count + 1, lease_until = NULL, leased_by = NULL, replay_id = NULL, held_since = NULL,
    held_until = NULL, updated_at = :now
