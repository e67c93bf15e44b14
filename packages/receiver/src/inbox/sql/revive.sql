-- revive: dead -> pending and due now, failures reset (the error stays until the next run ends).
-- $1 event_id, $2 now (ms).
UPDATE hookline_receiver_inbox
SET state = 'pending', failures = 0, available_at = $2, updated_at = $2
WHERE event_id = $1 AND state = 'dead'
