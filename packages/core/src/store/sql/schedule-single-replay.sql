-- schedule-single-replay: one attempt now; a dismissed delivery takes its place in its key's order again. params :replay_id, :id, :now
UPDATE deliveries SET status = 'pending', next_attempt_at = :now, replay_id = :replay_id, dismissed_at = NULL, updated_at = :now
WHERE id = :id AND status IN ('failed', 'skipped')
