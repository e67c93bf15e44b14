-- 008_portal_links: single-use console sign-in links (docs/console.md#portal-links). Only the sha256 of a link's
-- token is kept; a link is consumed by one UPDATE, so of two concurrent uses at most one signs in.
-- Aligned with ../../sqlite/migrations/008_portal_links.sql.
CREATE TABLE portal_links (
  hash TEXT PRIMARY KEY,                         -- sha256 (hex) of the token in the URL
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);
CREATE INDEX portal_links_tenant ON portal_links (tenant_id);
