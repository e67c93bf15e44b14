-- 006_outbox: notifications written in the transition's own transaction (docs/rules.md#notifications), and the
-- per-endpoint collection of deliveries that failed for good, summarised at most every 15 minutes.
-- Aligned with ../../postgres/migrations/006_outbox.sql.
CREATE TABLE outbox (
  id TEXT PRIMARY KEY,                           -- ntc_…: also the notice's id, the operational event's id, the mail's Message-ID
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,                            -- endpoint.degraded | endpoint.paused | endpoint.recovered | breaker.opened | breaker.closed | deliveries.failed
  subject_id TEXT,
  endpoint_id TEXT,                              -- the endpoint involved: never reported through itself
  data TEXT NOT NULL,                            -- JSON facts of the transition
  status TEXT NOT NULL DEFAULT 'pending',        -- pending | sent | abandoned
  tries INTEGER NOT NULL DEFAULT 0,
  due_at INTEGER NOT NULL,
  lease_until INTEGER,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX outbox_due ON outbox (due_at) WHERE status = 'pending';
CREATE INDEX outbox_done ON outbox (updated_at) WHERE status <> 'pending';

CREATE TABLE failure_summaries (
  endpoint_id TEXT PRIMARY KEY REFERENCES endpoints(id) ON DELETE CASCADE,
  tenant_id TEXT NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,              -- failed for good since the last summary
  money INTEGER NOT NULL DEFAULT 0,              -- of which money events
  first_failures TEXT NOT NULL DEFAULT '[]',     -- JSON: the first ones (delivery and event ids), at most 20
  first_at INTEGER,
  last_at INTEGER,
  last_sent_at INTEGER                           -- the last summary: the next one waits 15 minutes after it
);
CREATE INDEX failure_summaries_due ON failure_summaries (last_sent_at) WHERE count > 0;
