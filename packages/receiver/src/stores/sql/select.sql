-- select: one record by id.
-- $1 event_id.
SELECT event_id, state, attempt, answer_status, answer_body, error, updated_at
FROM hookline_receiver_events
WHERE event_id = $1
