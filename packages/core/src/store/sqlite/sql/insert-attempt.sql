-- insert-attempt: one attempt row. Idempotent on id: a commit whose outcome was lost is retried whole, and the retry
-- must not fail on the attempt it already wrote. A delivery deleted meanwhile (its endpoint or tenant was deleted
-- mid-flight) takes no attempt, instead of failing the whole batch on the foreign key. The held period is the one its
-- delivery's finish cleared (null when the lease was lost, or for a test): held_since, and held_until or else the start.
-- params: attempt columns, :held_since, :held_until
INSERT INTO attempts (id, delivery_id, tenant_id, endpoint_id, n, trigger, started_at, duration_ms, request_headers,
                      response_status, response_headers, response_excerpt, error_class, error_message, outcome,
                      ladder, trace_id, held_from, held_until)
SELECT :id, :delivery_id, :tenant_id, :endpoint_id, :n, :trigger, :started_at, :duration_ms, :request_headers,
       :response_status, :response_headers, :response_excerpt, :error_class, :error_message, :outcome, :ladder,
       :trace_id, :held_since, CASE WHEN :held_since IS NOT NULL THEN coalesce(:held_until, :started_at) END
WHERE EXISTS (SELECT 1 FROM deliveries WHERE id = :delivery_id)
ON CONFLICT (id) DO NOTHING
