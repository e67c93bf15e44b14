-- list-audit: newest first, keyset on seq; params :before (seq; a huge number for the first page), :tenant_id,
-- :action, :since, :until (each NULL: no filter), :limit
SELECT * FROM audit_log
WHERE seq < :before
  AND (:tenant_id IS NULL OR tenant_id = :tenant_id)
  AND (:action IS NULL OR action = :action)
  AND (:since IS NULL OR at >= :since)
  AND (:until IS NULL OR at < :until)
ORDER BY seq DESC LIMIT :limit
