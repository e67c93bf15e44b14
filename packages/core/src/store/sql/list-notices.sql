-- list-notices: newest first, with the tenant's environment; params :tenant_id, :before ('~' first page), :limit
SELECT n.*, t.environment FROM notices n JOIN tenants t ON t.id = n.tenant_id
WHERE n.tenant_id = :tenant_id AND n.id < :before ORDER BY n.id DESC LIMIT :limit
