-- update-endpoint-health: params :id, :status, :pause_reason, :failing_since, :consecutive_failed_events, :last_success_at, :now
UPDATE endpoints SET status = :status, pause_reason = :pause_reason, failing_since = :failing_since,
       consecutive_failed_events = :consecutive_failed_events, last_success_at = :last_success_at,
       version = CASE WHEN status <> :status THEN version + 1 ELSE version END, updated_at = :now
WHERE id = :id
