-- get-endpoint: params :tenant_id, :id
SELECT * FROM endpoints WHERE tenant_id = :tenant_id AND id = :id
