-- schedule-single-replay: params :replay_id, :id, :now
UPDATE deliveries SET status = 'pending', next_attempt_at = :now, replay_id = :replay_id, updated_at = :now
WHERE id = :id AND status IN ('failed', 'skipped')
