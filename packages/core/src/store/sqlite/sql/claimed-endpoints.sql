-- claimed-endpoints: the endpoints of a claimed batch, each with its tenant's environment (read once per endpoint).
-- params: :ids (JSON array of endpoint ids)
SELECT e.*, t.environment AS t_environment
FROM endpoints e
JOIN tenants t ON t.id = e.tenant_id
WHERE e.id IN (SELECT value FROM json_each(:ids))
