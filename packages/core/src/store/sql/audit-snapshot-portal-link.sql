-- audit-snapshot-portal-link: the portal link row an audit entry diffs; params :id (the link id: its hash's first 16 hex digits)
SELECT * FROM portal_links WHERE substr(hash, 1, 16) = :id
