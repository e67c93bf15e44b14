-- leased-statuses: SQLite's twin only (its leases are in memory: docs/rules.md#sqlite-leases). PostgreSQL keeps each
-- lease on its row (several worker processes share the database), so its store never calls this; kept so both
-- dialects name the same statements.
-- params: :ids (text[])
SELECT tenant_id, endpoint_id, status, count(*) AS n FROM deliveries
WHERE id = ANY(:ids::text[]) AND status IN ('pending', 'held')
GROUP BY tenant_id, endpoint_id, status
