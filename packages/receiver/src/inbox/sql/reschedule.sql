-- reschedule: running -> pending after a failed run, due again at $4; fenced by attempt.
-- $1 event_id, $2 attempt, $3 error, $4 due at (ms), $5 now (ms).
UPDATE hookline_receiver_inbox
SET state = 'pending', failures = failures + 1, error = $3, available_at = $4, updated_at = $5
WHERE event_id = $1 AND attempt = $2 AND state = 'running'
