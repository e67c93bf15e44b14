-- prune: delete finished records last touched before a time.
-- $1 before (ms).
DELETE FROM hookline_receiver_events
WHERE state IN ('done', 'failed') AND updated_at < $1
