-- 001_initial: tenants, keys, endpoints, secrets, events, deliveries, attempts, replays, breakers, notices.
-- Times are BIGINT milliseconds since the epoch; flags are INTEGER 0/1 and JSON is TEXT, as in the SQLite twin
-- (../../sqlite/migrations/001_initial.sql), so rows.ts maps both dialects alike.

CREATE TABLE tenants (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  owner_emails TEXT NOT NULL DEFAULT '[]',      -- JSON array
  operations_endpoint_id TEXT,
  notify_email INTEGER NOT NULL DEFAULT 1,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,                          -- first characters, shown in listings
  hash TEXT NOT NULL UNIQUE,                     -- sha256 of the whole key
  created_at BIGINT NOT NULL,
  last_used_at BIGINT,
  revoked_at BIGINT
);
CREATE INDEX api_keys_tenant ON api_keys (tenant_id);

CREATE TABLE endpoints (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  event_types TEXT NOT NULL DEFAULT '[]',        -- JSON array of names and prefix.* wildcards; [] = all
  policy TEXT NOT NULL,
  scheme TEXT NOT NULL DEFAULT 'hookline',
  timeout_ms INTEGER,
  max_concurrency INTEGER NOT NULL,            -- resolved from the policy when not given
  status TEXT NOT NULL DEFAULT 'active',         -- active | degraded | paused
  pause_reason TEXT,
  failing_since BIGINT,
  consecutive_failed_events INTEGER NOT NULL DEFAULT 0,
  last_success_at BIGINT,
  version INTEGER NOT NULL DEFAULT 1,            -- bumped on every change that workers must see
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX endpoints_tenant ON endpoints (tenant_id, id);

CREATE TABLE endpoint_secrets (
  kid TEXT PRIMARY KEY,
  endpoint_id TEXT NOT NULL REFERENCES endpoints(id) ON DELETE CASCADE,
  sealed TEXT NOT NULL,                          -- AES-256-GCM under the master key
  created_at BIGINT NOT NULL,
  expires_at BIGINT
);
CREATE INDEX endpoint_secrets_endpoint ON endpoint_secrets (endpoint_id);

CREATE TABLE events (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  event_id TEXT NOT NULL,
  type TEXT NOT NULL,
  version TEXT NOT NULL,
  occurred_at TEXT NOT NULL,
  body BYTEA NOT NULL,
  body_hash TEXT NOT NULL,
  is_money INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  UNIQUE (tenant_id, event_id)
);
CREATE INDEX events_created ON events (created_at);

CREATE TABLE deliveries (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  event_pk TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  endpoint_id TEXT NOT NULL REFERENCES endpoints(id) ON DELETE CASCADE,
  status TEXT NOT NULL,                          -- pending | delivering | held | succeeded | failed | skipped
  ladder TEXT NOT NULL DEFAULT 'fast',
  is_money INTEGER NOT NULL DEFAULT 0,
  attempt_count INTEGER NOT NULL DEFAULT 0,
  fast_failures INTEGER NOT NULL DEFAULT 0,
  slow_failures INTEGER NOT NULL DEFAULT 0,
  slow_started_at BIGINT,
  first_attempt_at BIGINT,
  last_attempt_at BIGINT,
  next_attempt_at BIGINT,
  lease_until BIGINT,
  leased_by TEXT,
  replay_id TEXT,                                -- set while a replay's single attempt is due
  terminal_reason TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
-- The scheduler reads due work by (status, next_attempt_at); expired leases by (status, lease_until).
CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at);
CREATE INDEX deliveries_leased ON deliveries (status, lease_until);
CREATE INDEX deliveries_tenant ON deliveries (tenant_id, id);
CREATE INDEX deliveries_endpoint ON deliveries (endpoint_id, status, last_attempt_at);
CREATE INDEX deliveries_event ON deliveries (event_pk);
CREATE INDEX deliveries_updated ON deliveries (updated_at);

CREATE TABLE attempts (
  id TEXT PRIMARY KEY,
  delivery_id TEXT NOT NULL REFERENCES deliveries(id) ON DELETE CASCADE,
  tenant_id TEXT NOT NULL,
  endpoint_id TEXT NOT NULL,
  n INTEGER NOT NULL,
  trigger TEXT NOT NULL,                         -- scheduled | replay | test | probe
  started_at BIGINT NOT NULL,
  duration_ms INTEGER NOT NULL,
  request_headers TEXT NOT NULL,                 -- JSON
  response_status INTEGER,
  response_headers TEXT,                         -- JSON
  response_excerpt TEXT,
  error_class TEXT,
  error_message TEXT,
  outcome TEXT NOT NULL                          -- success | delivery_failure | client_error
);
CREATE INDEX attempts_delivery ON attempts (delivery_id, n);
CREATE INDEX attempts_tenant_time ON attempts (tenant_id, started_at);
CREATE INDEX attempts_endpoint_time ON attempts (endpoint_id, started_at);

CREATE TABLE replays (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  endpoint_id TEXT,
  since_ms BIGINT,
  until_ms BIGINT,
  include_skipped INTEGER NOT NULL DEFAULT 0,
  selected INTEGER NOT NULL DEFAULT 0,
  attempted INTEGER NOT NULL DEFAULT 0,
  succeeded INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  kind TEXT NOT NULL,                            -- window | single
  created_at BIGINT NOT NULL
);
CREATE INDEX replays_tenant_day ON replays (tenant_id, kind, created_at);

-- One row per breaker scope ('tenant:<id>' or 'endpoint:<id>'), shared by every worker.
CREATE TABLE breakers (
  scope_key TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  state TEXT NOT NULL,                           -- closed | open | probing
  pause_ms BIGINT NOT NULL DEFAULT 0,
  opened_at BIGINT,
  next_probe_at BIGINT,
  probe_delivery_id TEXT,
  updated_at BIGINT NOT NULL
);

-- Sliding-window counts per breaker scope in 10-second buckets (cheaper than scanning attempts).
CREATE TABLE breaker_buckets (
  scope_key TEXT NOT NULL,
  bucket_start BIGINT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  failures INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (scope_key, bucket_start)
);

CREATE TABLE notices (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  kind TEXT NOT NULL,                            -- endpoint.degraded | endpoint.paused | … | delivery.failed
  subject_id TEXT,
  message TEXT NOT NULL,
  data TEXT NOT NULL DEFAULT '{}',
  created_at BIGINT NOT NULL
);
CREATE INDEX notices_tenant ON notices (tenant_id, created_at);

CREATE TABLE event_types (
  name TEXT PRIMARY KEY,
  description TEXT NOT NULL DEFAULT '',
  definition TEXT NOT NULL,                      -- JSON: versions with schema and example, money rule
  updated_at BIGINT NOT NULL
);

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- The claim (sql/claim-due.sql calls it). The leasing itself is one UPDATE … FOR UPDATE SKIP LOCKED; before it, the
-- worker takes a transaction-scoped advisory lock per endpoint it wants work from. A per-endpoint concurrency cap
-- counts 'delivering' rows, and under READ COMMITTED a single statement would count them from a snapshot taken
-- before another worker's claim committed; each statement of a PL/pgSQL function takes a fresh snapshot, so the
-- count below sees every committed claim of the endpoints this worker holds. Endpoints another worker is claiming
-- at this instant are skipped this round, the way SKIP LOCKED skips rows.
CREATE FUNCTION hookline_claim_due(p_now BIGINT, p_lease_until BIGINT, p_worker TEXT, p_limit INTEGER, p_saturated TEXT[], p_lease_factor INTEGER)
RETURNS TABLE (claimed_id TEXT) LANGUAGE plpgsql AS $$
DECLARE
  locked TEXT[];
BEGIN
  SELECT coalesce(array_agg(c.endpoint_id), '{}') INTO locked
  FROM (
    SELECT DISTINCT due.endpoint_id FROM (
      SELECT d.endpoint_id FROM deliveries d
      WHERE d.status IN ('pending', 'held') AND d.next_attempt_at <= p_now AND NOT (d.endpoint_id = ANY(p_saturated))
      ORDER BY d.next_attempt_at
      LIMIT p_limit * 4
    ) due
  ) c
  WHERE pg_try_advisory_xact_lock(hashtext('hookline.claim'), hashtext(c.endpoint_id));

  IF cardinality(locked) = 0 THEN
    RETURN;
  END IF;

  RETURN QUERY
  WITH candidates AS (
    SELECT d.id, d.endpoint_id, d.next_attempt_at FROM deliveries d
    WHERE d.status IN ('pending', 'held') AND d.next_attempt_at <= p_now AND d.endpoint_id = ANY(locked)
    ORDER BY d.next_attempt_at, d.id
    LIMIT p_limit * 4
    FOR UPDATE SKIP LOCKED
  ), in_flight AS (
    SELECT f.endpoint_id, count(*) AS n FROM deliveries f
    WHERE f.status = 'delivering' AND f.endpoint_id = ANY(locked) GROUP BY f.endpoint_id
  ), ranked AS (
    SELECT c.id, c.endpoint_id, c.next_attempt_at,
           row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at, c.id) AS rn
    FROM candidates c
  ), picked AS (
    SELECT r.id FROM ranked r
    JOIN endpoints e ON e.id = r.endpoint_id
    LEFT JOIN in_flight i ON i.endpoint_id = r.endpoint_id
    WHERE r.rn + coalesce(i.n, 0) <= e.max_concurrency * p_lease_factor
    ORDER BY r.next_attempt_at, r.id
    LIMIT p_limit
  )
  UPDATE deliveries u SET status = 'delivering', lease_until = p_lease_until, leased_by = p_worker, updated_at = p_now
  FROM picked WHERE u.id = picked.id
  RETURNING u.id;
END
$$;
