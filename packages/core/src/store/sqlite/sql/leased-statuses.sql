-- leased-statuses: how the rows of the deliveries leased in memory read (pending or held: docs/rules.md#sqlite-leases),
-- per endpoint, so that counts by status show them as delivering.
-- params: :ids (JSON array of leased delivery ids)
SELECT tenant_id, endpoint_id, status, count(*) AS n FROM deliveries
WHERE id IN (SELECT value FROM json_each(:ids)) AND status IN ('pending', 'held')
GROUP BY tenant_id, endpoint_id, status
