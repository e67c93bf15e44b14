-- audit-snapshot-breaker: the breaker row an audit entry diffs, every column; params :id (the scope key)
SELECT * FROM breakers WHERE scope_key = :id
