-- claimed-rows: everything a worker needs for the deliveries it just leased, with the tenant's environment.
-- params: :ids (text[] of delivery ids)
SELECT d.*, ev.event_id AS ev_event_id, ev.type AS ev_type, ev.body AS ev_body,
       ev.traceparent AS ev_traceparent, ev.tracestate AS ev_tracestate,
       e.tenant_id AS e_tenant_id, e.url AS e_url, e.description AS e_description, e.event_types AS e_event_types,
       e.policy AS e_policy, e.scheme AS e_scheme, e.timeout_ms AS e_timeout_ms,
       e.max_concurrency AS e_max_concurrency, e.ordering AS e_ordering,
       e.ordering_on_failure AS e_ordering_on_failure, e.payload_filter AS e_payload_filter,
       e.custom_headers AS e_custom_headers, e.paused_at AS e_paused_at, e.signing AS e_signing, e.status AS e_status, e.pause_reason AS e_pause_reason,
       e.failing_since AS e_failing_since, e.consecutive_failed_events AS e_consecutive_failed_events,
       e.last_success_at AS e_last_success_at, e.version AS e_version, e.created_at AS e_created_at,
       e.updated_at AS e_updated_at, t.environment AS t_environment,
       e.rate_limit_per_s AS e_rate_limit_per_s, e.effective_concurrency AS e_effective_concurrency
FROM deliveries d
JOIN events ev ON ev.id = d.event_pk
JOIN endpoints e ON e.id = d.endpoint_id
JOIN tenants t ON t.id = d.tenant_id
WHERE d.id = ANY(:ids::text[])
