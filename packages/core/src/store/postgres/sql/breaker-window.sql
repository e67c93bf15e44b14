-- breaker-window: params :scope_key, :since
SELECT coalesce(sum(attempts), 0) AS attempts, coalesce(sum(failures), 0) AS failures
FROM breaker_buckets WHERE scope_key = :scope_key AND bucket_start >= :since
