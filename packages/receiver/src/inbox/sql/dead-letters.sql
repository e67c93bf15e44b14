-- dead-letters: dead entries, oldest first.
-- $1 limit.
SELECT event_id, event_type, delivery_id, scheme, headers, body, state, attempt, failures, available_at, received_at, updated_at, error
FROM hookline_receiver_inbox
WHERE state = 'dead'
ORDER BY available_at
LIMIT $1
