-- rate-blocked-endpoints: endpoints whose rate bucket is empty until a later time; a claim skips their rows.
-- params: :now
SELECT endpoint_id FROM rate_buckets WHERE blocked_until > :now
