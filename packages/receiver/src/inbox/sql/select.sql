-- select: one entry by id.
-- $1 event_id.
SELECT event_id, event_type, delivery_id, scheme, headers, body, state, attempt, failures, available_at, received_at, updated_at, error
FROM hookline_receiver_inbox
WHERE event_id = $1
