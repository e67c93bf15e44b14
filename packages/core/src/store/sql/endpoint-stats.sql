-- endpoint-stats: params :tenant_id, :since, :now. Per endpoint of the tenant: deliveries not yet terminal by status,
-- the oldest due one, and deliveries that ended succeeded/failed with their last attempt since :since. Every count is
-- a range of the deliveries_endpoint index (endpoint_id, status, last_attempt_at), never a scan of the tenant's rows.
SELECT e.id AS endpoint_id, e.status AS endpoint_status,
  (SELECT count(*) FROM deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending') AS pending,
  (SELECT count(*) FROM deliveries d WHERE d.endpoint_id = e.id AND d.status = 'delivering') AS delivering,
  (SELECT count(*) FROM deliveries d WHERE d.endpoint_id = e.id AND d.status = 'held') AS held,
  (SELECT min(d.next_attempt_at) FROM deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= :now) AS oldest_due_at,
  (SELECT count(*) FROM deliveries d WHERE d.endpoint_id = e.id AND d.status = 'succeeded' AND d.last_attempt_at >= :since) AS succeeded,
  (SELECT count(*) FROM deliveries d WHERE d.endpoint_id = e.id AND d.status = 'failed' AND d.last_attempt_at >= :since) AS failed
FROM endpoints e WHERE e.tenant_id = :tenant_id ORDER BY e.id
