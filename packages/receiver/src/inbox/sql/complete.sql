-- complete: running -> done, fenced by attempt.
-- $1 event_id, $2 attempt, $3 now (ms).
UPDATE hookline_receiver_inbox
SET state = 'done', available_at = $3, updated_at = $3, error = NULL
WHERE event_id = $1 AND attempt = $2 AND state = 'running'
