-- next-due-at: when the scheduler must look again; one index probe per status (min over an IN list would scan).
SELECT min(at) AS at FROM (
  SELECT min(next_attempt_at) AS at FROM deliveries WHERE status = 'pending'
  UNION ALL
  SELECT min(next_attempt_at) AS at FROM deliveries WHERE status = 'held'
) due
