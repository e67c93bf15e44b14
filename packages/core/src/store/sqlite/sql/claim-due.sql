-- claim-due: the oldest due pending/held deliveries not leased already, skipping endpoints this worker already has at
-- their cap. A read: the store thread notes the lease in memory (docs/rules.md#sqlite-leases, lease-table.ts), so the row
-- is not written until its attempt is recorded. Each status is read from the (status, next_attempt_at) index in order,
-- so a large backlog is never scanned or sorted. Caps are enforced by the worker's per-endpoint lanes: a SQLite file has
-- one worker process (several workers share a PostgreSQL database, whose claim counts every worker's leases).
-- `status IN ('pending', 'held')` is spelled out for SQLite to pick the partial index deliveries_due.
-- A delivery with an ordering key is skipped while its key is not free (the key-free fragment: fragments/key-free.sql).
-- params: :now, :limit, :saturated (JSON array of endpoint ids to skip)
SELECT id FROM (
  SELECT * FROM (
    SELECT id, next_attempt_at FROM deliveries d
    WHERE status IN ('pending', 'held') AND status = 'pending' AND next_attempt_at <= :now
      AND endpoint_id NOT IN (SELECT value FROM json_each(:saturated))
      AND NOT hookline_leased(id) AND {{key-free}}
    ORDER BY next_attempt_at LIMIT :limit)
  UNION ALL
  SELECT * FROM (
    SELECT id, next_attempt_at FROM deliveries d
    WHERE status IN ('pending', 'held') AND status = 'held' AND next_attempt_at <= :now
      AND endpoint_id NOT IN (SELECT value FROM json_each(:saturated))
      AND NOT hookline_leased(id) AND {{key-free}}
    ORDER BY next_attempt_at LIMIT :limit)
)
ORDER BY next_attempt_at LIMIT :limit
