-- insert-endpoint: params endpoint columns
INSERT INTO endpoints (id, tenant_id, url, description, event_types, policy, scheme, timeout_ms, max_concurrency, ordering, ordering_on_failure, status,
                       pause_reason, failing_since, consecutive_failed_events, last_success_at, version, created_at, updated_at,
                       signing, rate_limit_per_s, uid, metadata, channels)
VALUES (:id, :tenant_id, :url, :description, :event_types, :policy, :scheme, :timeout_ms, :max_concurrency, :ordering, :ordering_on_failure, :status,
        :pause_reason, :failing_since, :consecutive_failed_events, :last_success_at, 1, :created_at, :updated_at,
        :signing, :rate_limit_per_s, :uid, :metadata, :channels)
