-- audit-snapshot-tenant: the tenant row an audit entry diffs, every column (a column added later shows up by itself); params :id
SELECT * FROM tenants WHERE id = :id
