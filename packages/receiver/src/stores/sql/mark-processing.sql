-- mark-processing: received -> processing, keeping the answer given; fenced by attempt.
-- $1 event_id, $2 attempt, $3 answer_status, $4 answer_body, $5 now (ms).
UPDATE hookline_receiver_events
SET state = 'processing', answer_status = $3, answer_body = $4, updated_at = $5
WHERE event_id = $1 AND attempt = $2 AND state = 'received'
