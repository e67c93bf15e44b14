-- purge-idempotency-keys: records past their 12 h. params :now
DELETE FROM idempotency_keys WHERE expires_at <= :now
