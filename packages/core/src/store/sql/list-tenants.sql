-- list-tenants: keyset page; params :after ('' for the first page), :limit
SELECT * FROM tenants WHERE id > :after ORDER BY id LIMIT :limit
