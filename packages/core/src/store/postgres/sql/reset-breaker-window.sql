-- reset-breaker-window: params :scope_key
DELETE FROM breaker_buckets WHERE scope_key = :scope_key
