-- keys-of-deliveries: the (endpoint, ordering key) pairs of these deliveries, for locking before they end.
-- params: :ids (text[])
SELECT DISTINCT endpoint_id, ordering_key FROM deliveries WHERE id = ANY(:ids::text[]) AND ordering_key IS NOT NULL
