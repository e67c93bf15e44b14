-- reset-breaker-window: params :scope_key
DELETE FROM breaker_deliveries WHERE scope_key = :scope_key
