-- release-held-endpoint: params :endpoint_id, :now
UPDATE deliveries SET status = 'pending', next_attempt_at = :now, updated_at = :now WHERE endpoint_id = :endpoint_id AND status = 'held'
