-- next-due-at: when the scheduler must look again.
SELECT min(next_attempt_at) AS at FROM deliveries WHERE status IN ('pending', 'held')
