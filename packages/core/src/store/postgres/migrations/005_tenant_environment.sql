-- 005_tenant_environment: every tenant is a test or a live one (docs/rules.md#environments), fixed at creation.
-- Existing tenants are live, as their hk_live_ keys already say. Attempts, notices and API keys have no column of
-- their own: they read their tenant's, which never changes.
ALTER TABLE tenants ADD COLUMN environment TEXT NOT NULL DEFAULT 'live' CHECK (environment IN ('test', 'live'));
