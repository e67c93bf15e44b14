-- list-attempts: with the tenant's environment; params :delivery_id
SELECT a.*, t.environment FROM attempts a JOIN tenants t ON t.id = a.tenant_id
WHERE a.delivery_id = :delivery_id ORDER BY a.n, a.started_at
