-- bump-breaker-bucket: params :scope_key, :bucket_start, :attempts, :failures
INSERT INTO breaker_buckets (scope_key, bucket_start, attempts, failures) VALUES (:scope_key, :bucket_start, :attempts, :failures)
ON CONFLICT (scope_key, bucket_start) DO UPDATE
SET attempts = breaker_buckets.attempts + excluded.attempts, failures = breaker_buckets.failures + excluded.failures
