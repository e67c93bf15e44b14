-- prune: delete up to $2 done entries finished before $1.
-- $1 before (ms), $2 limit.
DELETE FROM hookline_receiver_inbox
WHERE event_id IN (
  SELECT event_id FROM hookline_receiver_inbox
  WHERE state = 'done' AND available_at < $1
  ORDER BY available_at
  LIMIT $2
)
