-- insert-api-key: params api key columns
INSERT INTO api_keys (id, tenant_id, name, prefix, hash, created_at, last_used_at, revoked_at)
VALUES (:id, :tenant_id, :name, :prefix, :hash, :created_at, :last_used_at, :revoked_at)
