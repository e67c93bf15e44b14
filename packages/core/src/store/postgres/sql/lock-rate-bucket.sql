-- lock-rate-bucket: the bucket a claim takes tokens from, row-locked until the claim commits: workers take turns.
-- params: :endpoint_id
SELECT tokens, refilled_at, scheduled_until FROM rate_buckets WHERE endpoint_id = :endpoint_id FOR UPDATE
