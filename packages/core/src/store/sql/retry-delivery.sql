-- retry-delivery: retry now (docs/rules.md#retry-now): a pending or held delivery that heads its key becomes due now, as
-- its next attempt on its ladder (nothing else changes). Only one due later moves; 0 rows when it is not retryable
-- (the caller reads it again to say why) or already due. params :tenant_id, :id, :now
UPDATE deliveries AS d SET next_attempt_at = :now, updated_at = :now
WHERE d.id = :id AND d.tenant_id = :tenant_id AND d.status IN ('pending', 'held') AND d.next_attempt_at > :now
  AND {{key-head}}
