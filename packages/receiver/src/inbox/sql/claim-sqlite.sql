-- claim (sqlite): lease up to $3 due entries; run inside BEGIN IMMEDIATE, which makes it the only writer.
-- $1 now (ms), $2 lease (ms), $3 limit. Due: pending and due, or running with an expired lease.
UPDATE hookline_receiver_inbox
SET state = 'running', attempt = attempt + 1, available_at = $1 + $2, updated_at = $1
WHERE event_id IN (
  SELECT event_id FROM hookline_receiver_inbox
  WHERE state IN ('pending', 'running') AND available_at <= $1
  ORDER BY available_at
  LIMIT $3
)
RETURNING event_id, event_type, delivery_id, scheme, headers, body, state, attempt, failures, available_at, received_at, updated_at, error
