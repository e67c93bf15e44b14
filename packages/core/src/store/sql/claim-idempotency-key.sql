-- claim-idempotency-key: the first request with this key in its scope claims it (status null until it finishes);
-- nothing when the key is held. params :scope, :key, :request_hash, :now, :expires_at
INSERT INTO idempotency_keys (scope, key, request_hash, status, body, created_at, expires_at)
VALUES (:scope, :key, :request_hash, NULL, NULL, :now, :expires_at)
ON CONFLICT (scope, key) DO NOTHING
