-- insert-attempts: insert-attempt for a whole batch in one statement (SQLite). Idempotent on id (a commit whose outcome
-- was lost is retried whole); an attempt of a delivery deleted meanwhile is left out instead of failing the batch on
-- the foreign key. It runs before finish-attempts: an attempt whose worker still holds the lease it was made under
-- (the finish's own condition) takes over the delivery's held period: held_since, and held_until or else its own start.
-- params: :attempts (JSON array of attempt rows: the columns of insert-attempt, `worker`, the recording worker, and
--         `leased`, 1 while that worker holds the delivery's lease in memory)
INSERT INTO attempts (id, delivery_id, tenant_id, endpoint_id, n, trigger, started_at, duration_ms, request_headers,
                      response_status, response_headers, response_excerpt, error_class, error_message, outcome,
                      ladder, trace_id, held_from, held_until)
SELECT a.value ->> 'id', d.id, a.value ->> 'tenant_id', a.value ->> 'endpoint_id', a.value ->> 'n',
       a.value ->> 'trigger', a.value ->> 'started_at', a.value ->> 'duration_ms', a.value ->> 'request_headers',
       a.value ->> 'response_status', a.value ->> 'response_headers', a.value ->> 'response_excerpt',
       a.value ->> 'error_class', a.value ->> 'error_message', a.value ->> 'outcome', a.value ->> 'ladder',
       a.value ->> 'trace_id',
       CASE WHEN d.held_since IS NOT NULL AND (a.value ->> 'leased' = 1 OR (d.status = 'delivering' AND d.leased_by = a.value ->> 'worker'))
                 AND d.attempt_count = (a.value ->> 'n') - 1 THEN d.held_since END,
       CASE WHEN d.held_since IS NOT NULL AND (a.value ->> 'leased' = 1 OR (d.status = 'delivering' AND d.leased_by = a.value ->> 'worker'))
                 AND d.attempt_count = (a.value ->> 'n') - 1 THEN coalesce(d.held_until, a.value ->> 'started_at') END
FROM json_each(:attempts) AS a
JOIN deliveries d ON d.id = a.value ->> 'delivery_id'
WHERE true
ON CONFLICT (id) DO NOTHING
