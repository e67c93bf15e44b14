-- audit-snapshot-endpoint: the endpoint row an audit entry diffs, every column (a column added later shows up by itself); params :id
SELECT * FROM endpoints WHERE id = :id
