-- delete-endpoint: params :tenant_id, :id
DELETE FROM endpoints WHERE tenant_id = :tenant_id AND id = :id
