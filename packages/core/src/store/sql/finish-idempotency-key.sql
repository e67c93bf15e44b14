-- finish-idempotency-key: the first request's answer, kept for every repeat. params :scope, :key, :status, :body
UPDATE idempotency_keys SET status = :status, body = :body WHERE scope = :scope AND key = :key AND status IS NULL
