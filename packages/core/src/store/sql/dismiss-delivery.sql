-- dismiss-delivery: a failed delivery stops holding its key (on_failure 'block'); it stays failed, marked dismissed.
-- params: :tenant_id, :id, :now
UPDATE deliveries SET dismissed_at = :now, updated_at = :now
WHERE tenant_id = :tenant_id AND id = :id AND status = 'failed' AND ordering_key IS NOT NULL AND dismissed_at IS NULL
