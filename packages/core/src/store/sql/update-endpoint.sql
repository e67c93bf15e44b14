-- update-endpoint: full row write of the mutable fields; params endpoint columns, :now
UPDATE endpoints SET url = :url, description = :description, event_types = :event_types, policy = :policy,
       scheme = :scheme, timeout_ms = :timeout_ms, max_concurrency = :max_concurrency, ordering = :ordering,
       ordering_on_failure = :ordering_on_failure, status = :status,
       rate_limit_per_s = :rate_limit_per_s,
       pause_reason = :pause_reason, failing_since = :failing_since,
       consecutive_failed_events = :consecutive_failed_events, last_success_at = :last_success_at,
       version = version + 1, updated_at = :now
WHERE id = :id
