-- touch-api-key: records that a key authenticated a request, unless it was recorded after :recorded_before (the
-- caller's now minus the granularity: a key used all day writes its row about once a minute, not on every request).
-- params: :id, :now, :recorded_before
UPDATE api_keys SET last_used_at = :now
WHERE id = :id AND revoked_at IS NULL AND (last_used_at IS NULL OR last_used_at <= :recorded_before)
