-- mark-certificate-notified: the expiry notice of this certificate (same expiry) is written; params :endpoint_id,
-- :expires_at, :now
UPDATE endpoint_egress SET certificate_notified_at = :now
WHERE endpoint_id = :endpoint_id AND certificate_expires_at = :expires_at AND certificate_notified_at IS NULL
