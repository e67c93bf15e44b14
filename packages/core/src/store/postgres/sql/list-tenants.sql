-- list-tenants: keyset page; params :after ('' for the first page), :environment (NULL: every environment), :limit
SELECT * FROM tenants WHERE id > :after AND (:environment::text IS NULL OR environment = :environment::text) ORDER BY id LIMIT :limit
