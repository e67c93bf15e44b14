-- claim-due: lease the oldest due pending/held deliveries, skipping endpoints this worker already has at their cap.
-- Each status is read from the (status, next_attempt_at) index in order, so a large backlog is never scanned or
-- sorted. Caps are enforced by the worker's per-endpoint lanes: a SQLite file has one worker process (several
-- workers share a PostgreSQL database, whose claim counts every worker's leases).
-- `status IN ('pending', 'held')` is spelled out for SQLite to pick the partial index deliveries_due.
-- A delivery with an ordering key is skipped while its key is not free (docs/rules.md#ordered-claim): another delivery
-- of the key is leased, an earlier one is pending or held, or (on_failure 'block') an earlier one failed undismissed.
-- On a paused endpoint every key is free: its queue is taken at once to fail as endpoint_paused, never attempted.
-- The checks are spelled like the partial indexes deliveries_key_open/_failed; rows without a key skip them at once.
-- params: :now, :lease_until, :worker, :limit, :saturated (JSON array of endpoint ids to skip), :lease_factor (unused)
UPDATE deliveries
SET status = 'delivering', lease_until = :lease_until, leased_by = :worker, updated_at = :now
WHERE id IN (
  SELECT id FROM (
    SELECT * FROM (
      SELECT id, next_attempt_at FROM deliveries d
      WHERE status IN ('pending', 'held') AND status = 'pending' AND next_attempt_at <= :now
        AND endpoint_id NOT IN (SELECT value FROM json_each(:saturated))
        AND (ordering_key IS NULL OR (
          NOT EXISTS (SELECT 1 FROM deliveries p
            WHERE p.endpoint_id = d.endpoint_id AND p.ordering_key = d.ordering_key AND p.ordering_key IS NOT NULL
              AND p.status IN ('pending', 'delivering', 'held') AND (p.ordering_seq < d.ordering_seq OR p.status = 'delivering'))
          AND NOT EXISTS (SELECT 1 FROM deliveries p
            WHERE p.endpoint_id = d.endpoint_id AND p.ordering_key = d.ordering_key AND p.ordering_key IS NOT NULL
              AND p.status = 'failed' AND p.dismissed_at IS NULL AND p.ordering_seq < d.ordering_seq
              AND (SELECT ordering_on_failure FROM endpoints WHERE id = d.endpoint_id) = 'block'))
        OR (SELECT status FROM endpoints WHERE id = d.endpoint_id) = 'paused')
      ORDER BY next_attempt_at LIMIT :limit)
    UNION ALL
    SELECT * FROM (
      SELECT id, next_attempt_at FROM deliveries d
      WHERE status IN ('pending', 'held') AND status = 'held' AND next_attempt_at <= :now
        AND endpoint_id NOT IN (SELECT value FROM json_each(:saturated))
        AND (ordering_key IS NULL OR (
          NOT EXISTS (SELECT 1 FROM deliveries p
            WHERE p.endpoint_id = d.endpoint_id AND p.ordering_key = d.ordering_key AND p.ordering_key IS NOT NULL
              AND p.status IN ('pending', 'delivering', 'held') AND (p.ordering_seq < d.ordering_seq OR p.status = 'delivering'))
          AND NOT EXISTS (SELECT 1 FROM deliveries p
            WHERE p.endpoint_id = d.endpoint_id AND p.ordering_key = d.ordering_key AND p.ordering_key IS NOT NULL
              AND p.status = 'failed' AND p.dismissed_at IS NULL AND p.ordering_seq < d.ordering_seq
              AND (SELECT ordering_on_failure FROM endpoints WHERE id = d.endpoint_id) = 'block'))
        OR (SELECT status FROM endpoints WHERE id = d.endpoint_id) = 'paused')
      ORDER BY next_attempt_at LIMIT :limit)
  )
  ORDER BY next_attempt_at LIMIT :limit
)
RETURNING id
