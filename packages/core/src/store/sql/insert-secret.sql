-- insert-secret: params :kid, :endpoint_id, :sealed, :created_at, :expires_at
INSERT INTO endpoint_secrets (kid, endpoint_id, sealed, created_at, expires_at)
VALUES (:kid, :endpoint_id, :sealed, :created_at, :expires_at)
