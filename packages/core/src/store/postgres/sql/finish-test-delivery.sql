-- finish-test-delivery: a test delivery ends with its one attempt, while its sender still holds the lease (one that
-- lapsed was handed to the dispatcher, which decides from then on).
-- params: :id, :worker (null: any holder), :status, :reason, :started_at, :now
UPDATE deliveries SET status = :status::text, terminal_reason = :reason::text, attempt_count = attempt_count + 1,
       first_attempt_at = :started_at, last_attempt_at = :started_at, next_attempt_at = NULL, lease_until = NULL,
       leased_by = NULL, updated_at = :now
WHERE id = :id AND status NOT IN ('succeeded', 'failed', 'skipped') AND (:worker::text IS NULL OR leased_by = :worker::text)
