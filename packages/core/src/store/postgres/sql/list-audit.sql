-- list-audit: newest first, keyset on seq; params :before (seq; a huge number for the first page), :tenant_id,
-- :action, :since, :until (each NULL: no filter), :limit
SELECT * FROM audit_log
WHERE seq < :before
  AND (:tenant_id::text IS NULL OR tenant_id = :tenant_id::text)
  AND (:action::text IS NULL OR action = :action::text)
  AND (:since::bigint IS NULL OR at >= :since::bigint)
  AND (:until::bigint IS NULL OR at < :until::bigint)
ORDER BY seq DESC LIMIT :limit
