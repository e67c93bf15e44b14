-- delete-audit: entries up to and including a seq (retention, behind the checkpoint); params :through
DELETE FROM audit_log WHERE seq <= :through
