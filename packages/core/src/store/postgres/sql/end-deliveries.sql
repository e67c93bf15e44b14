-- end-deliveries: terminal without an attempt: failed (age limit while held, or endpoint paused while in progress).
-- params: :ids (text[]), :worker (null: any), :status, :reason, :now
UPDATE deliveries SET status = :status::text, terminal_reason = :reason::text, next_attempt_at = NULL, lease_until = NULL,
       leased_by = NULL, replay_id = NULL, updated_at = :now
WHERE id = ANY(:ids::text[]) AND status NOT IN ('succeeded', 'failed', 'skipped')
  AND (:worker::text IS NULL OR leased_by = :worker::text)
RETURNING id
