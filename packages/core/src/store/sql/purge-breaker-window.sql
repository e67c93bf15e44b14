-- purge-breaker-window: window rows older than any window can reach; params :before
DELETE FROM breaker_deliveries WHERE attempted_at < :before
