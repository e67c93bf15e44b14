-- list-breakers: params :tenant_id
SELECT * FROM breakers WHERE tenant_id = :tenant_id ORDER BY scope_key
