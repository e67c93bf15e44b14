-- insert-attempt-leased: one attempt row of a dispatcher's batch (SQLite), run once per record with the statement
-- prepared once (sqlite-driver.ts eachRow). Idempotent on id (a commit whose outcome was lost is retried whole); an
-- attempt of a delivery deleted meanwhile is left out instead of failing the batch on the foreign key. It runs before
-- finish-attempt-leased: an attempt whose worker still holds the lease it was made under (the finish's own condition)
-- takes over the delivery's held period: held_since, and held_until or else its own start.
-- params: the columns of insert-attempt (:id … :trace_id), :worker (the recording worker), :leased (1 while that
--         worker holds the delivery's lease in memory, lease-table.ts)
INSERT INTO attempts (id, delivery_id, tenant_id, endpoint_id, n, trigger, started_at, duration_ms, request_headers,
                      response_status, response_headers, response_excerpt, error_class, error_message, outcome,
                      ladder, trace_id, held_from, held_until)
SELECT :id, d.id, :tenant_id, :endpoint_id, :n, :trigger, :started_at, :duration_ms, :request_headers,
       :response_status, :response_headers, :response_excerpt, :error_class, :error_message, :outcome, :ladder,
       :trace_id,
       CASE WHEN d.held_since IS NOT NULL AND (:leased = 1 OR (d.status = 'delivering' AND d.leased_by = :worker))
                 AND d.attempt_count = :n - 1 THEN d.held_since END,
       CASE WHEN d.held_since IS NOT NULL AND (:leased = 1 OR (d.status = 'delivering' AND d.leased_by = :worker))
                 AND d.attempt_count = :n - 1 THEN coalesce(d.held_until, :started_at) END
FROM deliveries d
WHERE d.id = :delivery_id
ON CONFLICT (id) DO NOTHING
