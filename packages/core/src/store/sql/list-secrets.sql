-- list-secrets: params :endpoint_id
SELECT * FROM endpoint_secrets WHERE endpoint_id = :endpoint_id ORDER BY created_at, kid
