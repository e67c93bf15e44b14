-- claim (postgres): lease up to $3 due entries; rows another worker is claiming are skipped, not waited for.
-- $1 now (ms), $2 lease (ms), $3 limit. Due: pending and due, or running with an expired lease.
UPDATE hookline_receiver_inbox
SET state = 'running', attempt = attempt + 1, available_at = $1::bigint + $2::bigint, updated_at = $1::bigint
WHERE event_id IN (
  SELECT event_id FROM hookline_receiver_inbox
  WHERE state IN ('pending', 'running') AND available_at <= $1::bigint
  ORDER BY available_at
  LIMIT $3
  FOR UPDATE SKIP LOCKED
)
RETURNING event_id, event_type, delivery_id, scheme, headers, body, state, attempt, failures, available_at, received_at, updated_at, error
