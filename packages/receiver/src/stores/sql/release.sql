-- release: forget an unfinished claim whose request was rejected after recording.
-- $1 event_id, $2 attempt.
DELETE FROM hookline_receiver_events
WHERE event_id = $1 AND attempt = $2 AND state IN ('received', 'processing')
