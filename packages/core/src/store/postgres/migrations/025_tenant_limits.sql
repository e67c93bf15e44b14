-- 025_tenant_limits: per-tenant limits (docs/rules.md#tenant-limits), set by the admin; NULL takes the server's
-- configured default. Aligned with ../../sqlite/migrations/025_tenant_limits.sql.
ALTER TABLE tenants ADD COLUMN events_per_s DOUBLE PRECISION CHECK (events_per_s IS NULL OR events_per_s > 0);
ALTER TABLE tenants ADD COLUMN events_per_day INTEGER CHECK (events_per_day IS NULL OR events_per_day >= 0);
ALTER TABLE tenants ADD COLUMN max_endpoints INTEGER CHECK (max_endpoints IS NULL OR max_endpoints >= 0);
ALTER TABLE tenants ADD COLUMN max_payload_bytes INTEGER CHECK (max_payload_bytes IS NULL OR max_payload_bytes >= 1);
-- One row per tenant per UTC day (`day`: that midnight in ms), written in the transaction that accepts the events:
-- every new event counted once (an idempotent replay is not). minute_at/minute_events count the current minute,
-- prev_minute_events the one before it (the usage report's rate). notified_percent: the highest daily-quota notice
-- (80 or 100) already written that day, so each is written once.
CREATE TABLE tenant_usage (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  day BIGINT NOT NULL,
  events BIGINT NOT NULL,
  minute_at BIGINT NOT NULL,
  minute_events BIGINT NOT NULL,
  prev_minute_events BIGINT NOT NULL DEFAULT 0,
  notified_percent BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, day)
);
-- The token bucket of a tenant's events_per_s, shared by every API process: the accept transaction locks the tenant,
-- takes one token per new event, and refuses the events it has no token for.
CREATE TABLE tenant_rate_buckets (
  tenant_id TEXT PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
  tokens DOUBLE PRECISION NOT NULL,
  refilled_at BIGINT NOT NULL
);
