-- set-endpoint-labels: the Svix-compatible API's fields of an endpoint, all at once; the version moves (fan-out caches
-- reread it). params :tenant_id, :id, :uid, :metadata, :channels, :now
UPDATE endpoints SET uid = :uid, metadata = :metadata, channels = :channels, version = version + 1, updated_at = :now
WHERE tenant_id = :tenant_id AND id = :id
