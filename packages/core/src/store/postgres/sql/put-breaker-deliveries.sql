-- put-breaker-deliveries: each delivery of a record batch counts once in its scope's window, by its latest attempt (a
-- lease serialises a delivery's attempts, so the last recorded is the latest); one statement for the whole batch, in
-- key order (one lock order for every worker) instead of one round trip per delivery inside the record transaction.
-- params: :rows (JSON array of {scope_key, delivery_id, attempted_at, failed}, one per scope and delivery)
INSERT INTO breaker_deliveries AS b (scope_key, delivery_id, attempted_at, failed)
SELECT r.scope_key, r.delivery_id, r.attempted_at, r.failed
FROM json_to_recordset(:rows::json) AS r(scope_key text, delivery_id text, attempted_at bigint, failed integer)
ORDER BY r.scope_key, r.delivery_id
ON CONFLICT (scope_key, delivery_id) DO UPDATE SET attempted_at = excluded.attempted_at, failed = excluded.failed
