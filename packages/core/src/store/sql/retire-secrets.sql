-- retire-secrets: the current secrets stay live until :retire_at; params :endpoint_id, :retire_at
UPDATE endpoint_secrets SET expires_at = :retire_at WHERE endpoint_id = :endpoint_id AND expires_at IS NULL
