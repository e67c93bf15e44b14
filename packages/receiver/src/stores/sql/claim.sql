-- claim: record an event id, or re-claim it when its run failed or its claim went stale.
-- $1 event_id, $2 now (ms), $3 stale_before (ms: now - stale timeout).
-- Returns one row (attempt) when claimed, none when another run owns it or it is done.
INSERT INTO hookline_receiver_events (event_id, state, attempt, created_at, updated_at)
VALUES ($1, 'received', 1, $2, $2)
ON CONFLICT (event_id) DO UPDATE
  SET state = 'received',
      attempt = hookline_receiver_events.attempt + 1,
      error = NULL,
      updated_at = excluded.updated_at
  WHERE hookline_receiver_events.state = 'failed'
     OR (hookline_receiver_events.state IN ('received', 'processing')
         AND hookline_receiver_events.updated_at < $3)
RETURNING attempt
