-- list-tenants-newest: keyset page, newest first (the Svix-compatible API's `order=descending`); params :before (''
-- for the first page), :environment (NULL: every environment), :limit
SELECT * FROM tenants
WHERE (:before = '' OR id < :before) AND (CAST(:environment AS TEXT) IS NULL OR environment = CAST(:environment AS TEXT))
ORDER BY id DESC LIMIT :limit
