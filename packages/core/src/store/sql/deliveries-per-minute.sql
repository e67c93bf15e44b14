-- deliveries-per-minute: params :tenant_id, :since. The tenant's deliveries by the minute of their last attempt since
-- :since (epoch minutes) and their state: succeeded, failed, or pending again after an attempt (retrying). Ranges of the
-- deliveries_endpoint index (endpoint_id, status, last_attempt_at), one per endpoint and status.
SELECT d.last_attempt_at / 60000 AS minute, d.status AS status, count(*) AS n
FROM endpoints e JOIN deliveries d ON d.endpoint_id = e.id
WHERE e.tenant_id = :tenant_id AND d.status IN ('succeeded', 'failed', 'pending') AND d.last_attempt_at >= :since
GROUP BY d.last_attempt_at / 60000, d.status
ORDER BY 1
