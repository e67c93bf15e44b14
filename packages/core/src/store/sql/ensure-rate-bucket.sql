-- ensure-rate-bucket: a rate-limited endpoint's first claim creates its bucket full; a concurrent one waits and keeps it.
-- params: :endpoint_id, :tokens, :now
INSERT INTO rate_buckets (endpoint_id, tokens, refilled_at, scheduled_until) VALUES (:endpoint_id, :tokens, :now, 0)
ON CONFLICT (endpoint_id) DO NOTHING
