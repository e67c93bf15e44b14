-- get-idempotency-key: params :scope, :key
SELECT * FROM idempotency_keys WHERE scope = :scope AND key = :key
