-- retry-endpoint-deliveries: retry now for a whole endpoint (docs/rules.md#retry-now): every pending delivery due later
-- becomes due now; of an ordering key only its head (the others wait with no due time, or behind a blocking failure).
-- Held ones stay held: the breaker decides when they go. The claim paces what moved (caps, rate limit).
-- params :endpoint_id, :now
UPDATE deliveries AS d SET next_attempt_at = :now, updated_at = :now
WHERE d.endpoint_id = :endpoint_id AND d.status = 'pending' AND d.next_attempt_at > :now
  AND {{key-head}}
