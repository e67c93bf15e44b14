-- purge-portal-links: params :before; links that expired before :before (used or not) are forgotten
DELETE FROM portal_links WHERE expires_at < :before
