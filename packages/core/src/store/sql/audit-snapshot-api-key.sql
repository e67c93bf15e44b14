-- audit-snapshot-api-key: the api_key row an audit entry diffs, every column (a column added later shows up by itself); params :id
SELECT * FROM api_keys WHERE id = :id
