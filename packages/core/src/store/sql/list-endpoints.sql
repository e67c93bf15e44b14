-- list-endpoints: keyset page; params :tenant_id, :after, :limit
SELECT * FROM endpoints WHERE tenant_id = :tenant_id AND id > :after ORDER BY id LIMIT :limit
