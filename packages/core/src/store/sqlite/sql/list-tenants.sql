-- list-tenants: keyset page; params :after ('' for the first page), :environment (NULL: every environment), :limit
SELECT * FROM tenants WHERE id > :after AND (:environment IS NULL OR environment = :environment) ORDER BY id LIMIT :limit
