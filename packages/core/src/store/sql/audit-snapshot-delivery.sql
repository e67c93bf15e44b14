-- audit-snapshot-delivery: the delivery row an audit entry diffs, every column (a column added later shows up by itself); params :id
SELECT * FROM deliveries WHERE id = :id
