-- end-deliveries: terminal without an attempt: failed (age limit while held, or endpoint paused while in progress).
-- A held period still open ends now (a replay's attempt takes it over and draws it).
-- params: :ids (text[]), :worker (null: any), :status, :reason, :now
UPDATE deliveries SET status = :status::text, terminal_reason = :reason::text, next_attempt_at = NULL, lease_until = NULL,
       leased_by = NULL, replay_id = NULL,
       held_until = CASE WHEN held_since IS NULL THEN NULL ELSE coalesce(held_until, :now) END, updated_at = :now
WHERE id = ANY(:ids::text[]) AND status NOT IN ('succeeded', 'failed', 'skipped')
  AND (:worker::text IS NULL OR leased_by = :worker::text)
RETURNING id
