-- accept: store an event as it arrived, pending and due at once; a known id is left untouched.
-- $1 event_id, $2 event_type, $3 delivery_id, $4 scheme, $5 headers (JSON), $6 body (bytes), $7 received_at (ms).
-- Returns one row when stored, none for a duplicate.
INSERT INTO hookline_receiver_inbox (event_id, event_type, delivery_id, scheme, headers, body, state, attempt, failures, available_at, received_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, 'pending', 0, 0, $7, $7, $7)
ON CONFLICT (event_id) DO NOTHING
RETURNING state
