-- insert-attempt: one attempt row. Idempotent on id: a commit whose outcome was lost with its connection is
-- retried whole, and the retry must not fail on the attempt it already wrote.
-- params: attempt columns
INSERT INTO attempts (id, delivery_id, tenant_id, endpoint_id, n, trigger, started_at, duration_ms, request_headers,
                      response_status, response_headers, response_excerpt, error_class, error_message, outcome)
VALUES (:id, :delivery_id, :tenant_id, :endpoint_id, :n, :trigger, :started_at, :duration_ms, :request_headers,
        :response_status, :response_headers, :response_excerpt, :error_class, :error_message, :outcome)
ON CONFLICT (id) DO NOTHING
