-- insert-attempts: insert-attempt for a whole batch in one statement (PostgreSQL only). Idempotent on id (a retried
-- commit must not fail on what it already wrote); a delivery deleted meanwhile takes no attempt (FOR KEY SHARE waits
-- for a concurrent delete of the row and then sees it gone). The held period is the one finish-attempts cleared
-- (null for a record whose lease was lost): held_since, and held_until or else the attempt's start.
-- params (arrays, one element per attempt): :ids, :delivery_ids, :tenant_ids, :endpoint_ids, :ns, :triggers,
--         :started_ats, :duration_mss, :request_headers, :response_statuses, :response_headers, :response_excerpts,
--         :error_classes, :error_messages, :outcomes, :ladders, :trace_ids, :held_sinces, :held_untils
INSERT INTO attempts (id, delivery_id, tenant_id, endpoint_id, n, trigger, started_at, duration_ms, request_headers,
                      response_status, response_headers, response_excerpt, error_class, error_message, outcome,
                      ladder, trace_id, held_from, held_until)
SELECT a.id, d.id, a.tenant_id, a.endpoint_id, a.n, a.trigger, a.started_at, a.duration_ms, a.request_headers,
       a.response_status, a.response_headers, a.response_excerpt, a.error_class, a.error_message, a.outcome,
       a.ladder, a.trace_id, a.held_since, CASE WHEN a.held_since IS NOT NULL THEN coalesce(a.held_until, a.started_at) END
FROM unnest(:ids::text[], :delivery_ids::text[], :tenant_ids::text[], :endpoint_ids::text[], :ns::integer[],
            :triggers::text[], :started_ats::bigint[], :duration_mss::integer[], :request_headers::text[],
            :response_statuses::integer[], :response_headers::text[], :response_excerpts::text[],
            :error_classes::text[], :error_messages::text[], :outcomes::text[], :ladders::text[], :trace_ids::text[],
            :held_sinces::bigint[], :held_untils::bigint[])
  AS a(id, delivery_id, tenant_id, endpoint_id, n, trigger, started_at, duration_ms, request_headers, response_status,
       response_headers, response_excerpt, error_class, error_message, outcome, ladder, trace_id, held_since, held_until)
JOIN deliveries d ON d.id = a.delivery_id
ORDER BY a.id
FOR KEY SHARE OF d
ON CONFLICT (id) DO NOTHING
