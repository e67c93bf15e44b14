-- keys-of-deliveries: the (endpoint, ordering key) pairs of these deliveries, for locking before they end.
-- params: :ids (JSON array)
SELECT DISTINCT endpoint_id, ordering_key FROM deliveries WHERE id IN (SELECT value FROM json_each(:ids)) AND ordering_key IS NOT NULL
