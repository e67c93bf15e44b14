-- insert-portal-link: params :hash, :tenant_id, :created_at, :expires_at
INSERT INTO portal_links (hash, tenant_id, created_at, expires_at, used_at) VALUES (:hash, :tenant_id, :created_at, :expires_at, NULL)
