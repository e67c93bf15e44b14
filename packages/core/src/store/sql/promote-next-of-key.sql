-- promote-next-of-key: a delivery of this key ended, so the key's first waiting delivery (inserted behind an unfinished
-- one, with no due time: docs/rules.md#ordered-claim) becomes due now. The claim still checks the key, so a promotion
-- too early (an earlier failed one holds a block key) only makes it due, never sends it out of order.
-- params: :endpoint_id, :ordering_key, :now
UPDATE deliveries SET next_attempt_at = :now, updated_at = :now
WHERE id = (SELECT id FROM deliveries
            WHERE endpoint_id = :endpoint_id AND ordering_key = :ordering_key AND status = 'pending' AND next_attempt_at IS NULL
            ORDER BY ordering_seq LIMIT 1)
