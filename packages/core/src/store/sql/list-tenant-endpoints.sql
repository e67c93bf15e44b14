-- list-tenant-endpoints: params :tenant_id
SELECT * FROM endpoints WHERE tenant_id = :tenant_id ORDER BY id
