-- purge-breaker-buckets: window buckets older than any window can reach; params :before
DELETE FROM breaker_buckets WHERE bucket_start < :before
