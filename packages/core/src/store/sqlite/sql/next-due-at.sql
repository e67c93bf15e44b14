-- next-due-at: when the scheduler must look again; one index probe per status (min over an IN list would scan).
-- The IN term is spelled out for SQLite to pick the partial index deliveries_due. A delivery waiting behind an earlier
-- one of its ordering key is not due (docs/rules.md#ordered-claim): the key moves when that one does. The key check is
-- claim-due's (the key-free fragment); rows without a key pass it at once, so the first row read is the answer. A delivery
-- waiting behind its key has no due time (NULL sorts first: skipped explicitly). A delivery leased in memory is not
-- waiting either (docs/rules.md#sqlite-leases).
SELECT min(at) AS at FROM (
  SELECT * FROM (
    SELECT next_attempt_at AS at FROM deliveries d WHERE status IN ('pending', 'held') AND status = 'pending' AND next_attempt_at IS NOT NULL
      AND NOT hookline_leased(id) AND {{key-free}}
    ORDER BY next_attempt_at LIMIT 1)
  UNION ALL
  SELECT * FROM (
    SELECT next_attempt_at AS at FROM deliveries d WHERE status IN ('pending', 'held') AND status = 'held' AND next_attempt_at IS NOT NULL
      AND NOT hookline_leased(id) AND {{key-free}}
    ORDER BY next_attempt_at LIMIT 1)
)
