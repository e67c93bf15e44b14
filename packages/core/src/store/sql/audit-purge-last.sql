-- audit-purge-last: the newest entry of the oldest `limit` made before :before — the last one a purge batch deletes;
-- params :before, :limit
SELECT seq, hash FROM (SELECT seq, hash FROM audit_log WHERE at < :before ORDER BY seq LIMIT :limit) AS oldest
ORDER BY seq DESC LIMIT 1
