-- get-breaker: params :scope_key
SELECT * FROM breakers WHERE scope_key = :scope_key
