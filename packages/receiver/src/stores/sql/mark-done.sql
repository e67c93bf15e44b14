-- mark-done: received|processing -> done; a NULL answer keeps the stored one. Fenced by attempt.
-- $1 event_id, $2 attempt, $3 now (ms), $4 answer_status or NULL, $5 answer_body or NULL.
UPDATE hookline_receiver_events
SET state = 'done',
    answer_status = COALESCE($4, answer_status),
    answer_body = COALESCE($5, answer_body),
    updated_at = $3
WHERE event_id = $1 AND attempt = $2 AND state IN ('received', 'processing')
