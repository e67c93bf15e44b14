-- consume-portal-link: params :hash, :now; the tenant of a link used for the first time before it expired, else no row
UPDATE portal_links SET used_at = :now WHERE hash = :hash AND used_at IS NULL AND expires_at > :now RETURNING tenant_id
