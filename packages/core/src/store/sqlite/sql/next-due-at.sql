-- next-due-at: when the scheduler must look again; one index probe per status (min over an IN list would scan).
-- The IN term is spelled out for SQLite to pick the partial index deliveries_due.
SELECT min(at) AS at FROM (
  SELECT min(next_attempt_at) AS at FROM deliveries WHERE status IN ('pending', 'held') AND status = 'pending'
  UNION ALL
  SELECT min(next_attempt_at) AS at FROM deliveries WHERE status IN ('pending', 'held') AND status = 'held'
)
