-- insert-attempts: insert-attempt for a whole batch in one statement (SQLite). Idempotent on id (a commit whose outcome
-- was lost is retried whole); an attempt of a delivery deleted meanwhile is left out instead of failing the batch on
-- the foreign key.
-- params: :attempts (JSON array of attempt rows: the columns of insert-attempt)
INSERT INTO attempts (id, delivery_id, tenant_id, endpoint_id, n, trigger, started_at, duration_ms, request_headers,
                      response_status, response_headers, response_excerpt, error_class, error_message, outcome)
SELECT a.value ->> 'id', a.value ->> 'delivery_id', a.value ->> 'tenant_id', a.value ->> 'endpoint_id', a.value ->> 'n',
       a.value ->> 'trigger', a.value ->> 'started_at', a.value ->> 'duration_ms', a.value ->> 'request_headers',
       a.value ->> 'response_status', a.value ->> 'response_headers', a.value ->> 'response_excerpt',
       a.value ->> 'error_class', a.value ->> 'error_message', a.value ->> 'outcome'
FROM json_each(:attempts) AS a
WHERE EXISTS (SELECT 1 FROM deliveries WHERE id = a.value ->> 'delivery_id')
ON CONFLICT (id) DO NOTHING
