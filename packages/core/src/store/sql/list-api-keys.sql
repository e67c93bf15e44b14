-- list-api-keys: params :tenant_id
SELECT * FROM api_keys WHERE tenant_id = :tenant_id ORDER BY id
