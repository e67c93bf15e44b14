-- mark-failed: received|processing -> failed, so the next delivery re-runs the work. Fenced by attempt.
-- $1 event_id, $2 attempt, $3 error, $4 now (ms).
UPDATE hookline_receiver_events
SET state = 'failed', error = $3, updated_at = $4
WHERE event_id = $1 AND attempt = $2 AND state IN ('received', 'processing')
