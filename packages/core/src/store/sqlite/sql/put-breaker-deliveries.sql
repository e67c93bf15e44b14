-- put-breaker-deliveries: each delivery of a record batch counts once in its scope's window, by its latest attempt (a
-- lease serialises a delivery's attempts, so the last recorded is the latest); one statement for the whole batch.
-- params: :rows (JSON array of {scope_key, delivery_id, attempted_at, failed}, one per scope and delivery)
INSERT INTO breaker_deliveries (scope_key, delivery_id, attempted_at, failed)
SELECT r.value ->> 'scope_key', r.value ->> 'delivery_id', r.value ->> 'attempted_at', r.value ->> 'failed'
FROM json_each(:rows) AS r WHERE true
ON CONFLICT (scope_key, delivery_id) DO UPDATE SET attempted_at = excluded.attempted_at, failed = excluded.failed
