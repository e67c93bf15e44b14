-- finish-test-delivery: a test delivery ends with its one attempt.
-- params: :id, :status, :reason, :started_at, :now
UPDATE deliveries SET status = :status, terminal_reason = :reason, attempt_count = attempt_count + 1,
       first_attempt_at = :started_at, last_attempt_at = :started_at, next_attempt_at = NULL, updated_at = :now
WHERE id = :id
