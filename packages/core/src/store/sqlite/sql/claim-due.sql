-- claim-due: lease the oldest due pending/held deliveries, skipping endpoints this worker already has at their cap.
-- Each status is read from the (status, next_attempt_at) index in order, so a large backlog is never scanned or
-- sorted. Caps are enforced by the worker's per-endpoint lanes: a SQLite file has one worker process (several
-- workers share a PostgreSQL database, whose claim counts every worker's leases).
-- `status IN ('pending', 'held')` is spelled out for SQLite to pick the partial index deliveries_due.
-- A delivery with an ordering key is skipped while its key is not free (the key-free fragment: fragments/key-free.sql).
-- params: :now, :lease_until, :worker, :limit, :saturated (JSON array of endpoint ids to skip), :lease_factor (unused)
UPDATE deliveries
SET status = 'delivering', lease_until = :lease_until, leased_by = :worker, updated_at = :now
WHERE id IN (
  SELECT id FROM (
    SELECT * FROM (
      SELECT id, next_attempt_at FROM deliveries d
      WHERE status IN ('pending', 'held') AND status = 'pending' AND next_attempt_at <= :now
        AND endpoint_id NOT IN (SELECT value FROM json_each(:saturated))
        AND {{key-free}}
      ORDER BY next_attempt_at LIMIT :limit)
    UNION ALL
    SELECT * FROM (
      SELECT id, next_attempt_at FROM deliveries d
      WHERE status IN ('pending', 'held') AND status = 'held' AND next_attempt_at <= :now
        AND endpoint_id NOT IN (SELECT value FROM json_each(:saturated))
        AND {{key-free}}
      ORDER BY next_attempt_at LIMIT :limit)
  )
  ORDER BY next_attempt_at LIMIT :limit
)
RETURNING id
