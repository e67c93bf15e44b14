-- insert-attempt: one attempt row. Idempotent on id: a commit whose outcome was lost with its connection is
-- retried whole, and the retry must not fail on the attempt it already wrote. A delivery deleted meanwhile (its
-- endpoint or tenant was deleted mid-flight) takes no attempt, instead of failing the whole batch on the foreign
-- key: FOR KEY SHARE waits for a concurrent delete of the row and then sees it gone. The held period is the one
-- finish-attempt cleared (null when the lease was lost, or for a test): held_since, and held_until or else the start.
-- params: attempt columns, :held_since, :held_until
INSERT INTO attempts (id, delivery_id, tenant_id, endpoint_id, n, trigger, started_at, duration_ms, request_headers,
                      response_status, response_headers, response_excerpt, error_class, error_message, outcome,
                      ladder, trace_id, held_from, held_until)
SELECT :id, d.id, :tenant_id, :endpoint_id, :n, :trigger, :started_at, :duration_ms, :request_headers,
       :response_status, :response_headers, :response_excerpt, :error_class, :error_message, :outcome, :ladder,
       :trace_id, :held_since::bigint,
       CASE WHEN :held_since::bigint IS NOT NULL THEN coalesce(:held_until::bigint, :started_at::bigint) END
FROM deliveries d WHERE d.id = :delivery_id FOR KEY SHARE OF d
ON CONFLICT (id) DO NOTHING
