-- expiring-certificates: client certificates expiring before :before whose notice is not written yet, soonest first;
-- params :before, :limit
SELECT g.endpoint_id, e.tenant_id, g.certificate_subject, g.certificate_expires_at
FROM endpoint_egress g JOIN endpoints e ON e.id = g.endpoint_id
WHERE g.certificate_expires_at IS NOT NULL AND g.certificate_notified_at IS NULL AND g.certificate_expires_at < :before
ORDER BY g.certificate_expires_at, g.endpoint_id
LIMIT :limit
