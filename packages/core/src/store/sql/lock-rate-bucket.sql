-- lock-rate-bucket: the bucket a claim takes tokens from (a SQLite write transaction already runs alone).
-- params: :endpoint_id
SELECT tokens, refilled_at, scheduled_until FROM rate_buckets WHERE endpoint_id = :endpoint_id
