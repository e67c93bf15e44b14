-- list-notices: newest first; params :tenant_id, :before ('~' first page), :limit
SELECT * FROM notices WHERE tenant_id = :tenant_id AND id < :before ORDER BY id DESC LIMIT :limit
