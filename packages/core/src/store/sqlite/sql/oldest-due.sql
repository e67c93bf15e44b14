-- oldest-due: params :now. The earliest next_attempt_at of a pending delivery already due (how far workers lag);
-- deliveries leased in memory (docs/rules.md#sqlite-leases) are being worked on, not waiting; the IN term lets SQLite use the partial deliveries_due index.
SELECT min(next_attempt_at) AS at FROM deliveries WHERE status IN ('pending', 'held') AND status = 'pending' AND next_attempt_at <= :now
  AND NOT hookline_leased(id)
