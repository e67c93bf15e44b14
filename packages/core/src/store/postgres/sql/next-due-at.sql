-- next-due-at: when the scheduler must look again; one index probe per status (min over an IN list would scan).
-- A delivery waiting behind an earlier one of its ordering key is not due (docs/rules.md#ordered-claim): the key moves
-- when that one does. Rows without a key pass the check at once, so the first row read is the answer.
SELECT min(at) AS at FROM (
  (SELECT d.next_attempt_at AS at FROM deliveries d WHERE d.status = 'pending' AND d.next_attempt_at IS NOT NULL
     AND (d.ordering_key IS NULL OR hookline_key_free(d.endpoint_id, d.ordering_key, d.ordering_seq))
   ORDER BY d.next_attempt_at LIMIT 1)
  UNION ALL
  (SELECT d.next_attempt_at AS at FROM deliveries d WHERE d.status = 'held' AND d.next_attempt_at IS NOT NULL
     AND (d.ordering_key IS NULL OR hookline_key_free(d.endpoint_id, d.ordering_key, d.ordering_seq))
   ORDER BY d.next_attempt_at LIMIT 1)
) due
