-- set-effective-concurrency: the concurrency the dispatcher learned for an endpoint (docs/rules.md#adaptive-concurrency);
-- not an edit: neither version nor updated_at change. params: :id, :value (NULL: not throttled)
UPDATE endpoints SET effective_concurrency = :value WHERE id = :id
