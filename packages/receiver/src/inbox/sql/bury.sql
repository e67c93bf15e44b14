-- bury: running -> dead after the last allowed failure, keeping the error; fenced by attempt.
-- $1 event_id, $2 attempt, $3 error, $4 now (ms).
UPDATE hookline_receiver_inbox
SET state = 'dead', failures = failures + 1, error = $3, available_at = $4, updated_at = $4
WHERE event_id = $1 AND attempt = $2 AND state = 'running'
