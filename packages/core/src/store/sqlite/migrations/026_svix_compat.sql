-- 026_svix_compat: what the Svix-compatible API (/api/v1, docs/svix-compatibility.md) keeps beside Hookline's own
-- rows. Tenants and endpoints take a caller-chosen `uid` (unique per scope: tenants overall, endpoints per tenant)
-- and string `metadata` (JSON object); a tenant takes its payload format (`raw`: a message's payload is the body
-- sent, Svix's behaviour) and Svix's rate limit; an endpoint its channels (JSON array; null: every message). A message's
-- channels and tags sit in their own row beside the event. `idempotency_keys` answers a repeated POST with its first
-- answer for 12 h: `status` null while the first request is still running.
ALTER TABLE tenants ADD COLUMN uid TEXT;
ALTER TABLE tenants ADD COLUMN metadata TEXT;
ALTER TABLE tenants ADD COLUMN payload_format TEXT NOT NULL DEFAULT 'envelope' CHECK (payload_format IN ('envelope', 'raw'));
ALTER TABLE tenants ADD COLUMN app_rate_limit INTEGER;
CREATE UNIQUE INDEX tenants_uid ON tenants (uid) WHERE uid IS NOT NULL;
ALTER TABLE endpoints ADD COLUMN uid TEXT;
ALTER TABLE endpoints ADD COLUMN metadata TEXT;
ALTER TABLE endpoints ADD COLUMN channels TEXT;
CREATE UNIQUE INDEX endpoints_uid ON endpoints (tenant_id, uid) WHERE uid IS NOT NULL;
CREATE TABLE message_labels (
  event_pk TEXT PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  channels TEXT,
  tags TEXT
);
CREATE TABLE idempotency_keys (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status INTEGER,
  body TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at);
