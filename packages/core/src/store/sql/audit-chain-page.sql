-- audit-chain-page: entries after a seq, oldest first (verification's walk); params :after, :limit
SELECT * FROM audit_log WHERE seq > :after ORDER BY seq LIMIT :limit
