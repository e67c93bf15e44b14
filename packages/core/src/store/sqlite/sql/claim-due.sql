-- claim-due: lease due pending/held deliveries, respecting each endpoint's concurrency cap across workers.
-- params: :now, :lease_until, :worker, :limit, :saturated (JSON array of endpoint ids to skip)
UPDATE deliveries
SET status = 'delivering', lease_until = :lease_until, leased_by = :worker, updated_at = :now
WHERE id IN (
  SELECT c.id FROM (
    SELECT d.id, d.endpoint_id, d.next_attempt_at,
           row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) AS rn
    FROM deliveries d
    WHERE d.status IN ('pending', 'held') AND d.next_attempt_at <= :now
      AND d.endpoint_id NOT IN (SELECT value FROM json_each(:saturated))
    ORDER BY d.next_attempt_at
    LIMIT :limit * 4
  ) c
  JOIN endpoints e ON e.id = c.endpoint_id
  WHERE c.rn + (SELECT count(*) FROM deliveries f WHERE f.endpoint_id = c.endpoint_id AND f.status = 'delivering')
        <= e.max_concurrency
  ORDER BY c.next_attempt_at
  LIMIT :limit
)
RETURNING id
