-- revoke-api-key: params :tenant_id, :id, :now
UPDATE api_keys SET revoked_at = :now WHERE tenant_id = :tenant_id AND id = :id AND revoked_at IS NULL
