-- put-rate-bucket: what a claim left in the bucket.
-- params: :endpoint_id, :tokens, :refilled_at, :scheduled_until
UPDATE rate_buckets SET tokens = :tokens, refilled_at = :refilled_at, scheduled_until = :scheduled_until WHERE endpoint_id = :endpoint_id
