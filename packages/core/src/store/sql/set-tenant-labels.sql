-- set-tenant-labels: the Svix-compatible API's fields of a tenant, all at once. params :id, :uid, :metadata, :payload_format, :app_rate_limit, :now
UPDATE tenants SET uid = :uid, metadata = :metadata, payload_format = :payload_format, app_rate_limit = :app_rate_limit,
       updated_at = :now
WHERE id = :id
