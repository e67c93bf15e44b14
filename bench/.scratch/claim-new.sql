-- claim-due: lease due pending/held deliveries, respecting each endpoint's concurrency cap across workers.
-- Each status is read from the (status, next_attempt_at) index in order, so a large backlog is never sorted; the
-- in-flight count per endpoint is read once from the delivering rows, not once per candidate.
-- params: :now, :lease_until, :worker, :limit, :saturated (JSON array of endpoint ids to skip)
UPDATE deliveries
SET status = 'delivering', lease_until = :lease_until, leased_by = :worker, updated_at = :now
WHERE id IN (
  WITH busy AS (
    SELECT endpoint_id, count(*) AS n FROM deliveries WHERE status = 'delivering' GROUP BY endpoint_id
  )
  SELECT c.id FROM (
    SELECT due.id, due.endpoint_id, due.next_attempt_at,
           row_number() OVER (PARTITION BY due.endpoint_id ORDER BY due.next_attempt_at, due.id) AS rn
    FROM (
      SELECT * FROM (
        SELECT id, endpoint_id, next_attempt_at FROM deliveries
        WHERE status = 'pending' AND next_attempt_at <= :now
          AND endpoint_id NOT IN (SELECT value FROM json_each(:saturated))
        ORDER BY next_attempt_at LIMIT :limit * 4)
      UNION ALL
      SELECT * FROM (
        SELECT id, endpoint_id, next_attempt_at FROM deliveries
        WHERE status = 'held' AND next_attempt_at <= :now
          AND endpoint_id NOT IN (SELECT value FROM json_each(:saturated))
        ORDER BY next_attempt_at LIMIT :limit * 4)
    ) due
  ) c
  JOIN endpoints e ON e.id = c.endpoint_id
  LEFT JOIN busy b ON b.endpoint_id = c.endpoint_id
  WHERE c.rn + coalesce(b.n, 0) <= e.max_concurrency
  ORDER BY c.next_attempt_at
  LIMIT :limit
)
RETURNING id
