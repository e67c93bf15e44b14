-- find-endpoint-by-uid: a tenant's endpoint by its caller-chosen uid. params :tenant_id, :uid
SELECT * FROM endpoints WHERE tenant_id = :tenant_id AND uid = :uid
