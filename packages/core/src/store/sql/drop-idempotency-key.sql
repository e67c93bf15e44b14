-- drop-idempotency-key: a key whose request failed without an answer to keep, or whose record expired (so a new
-- request may claim it). params :scope, :key, :before (drop only a record created before it; the expiry check)
DELETE FROM idempotency_keys WHERE scope = :scope AND key = :key AND created_at < :before
