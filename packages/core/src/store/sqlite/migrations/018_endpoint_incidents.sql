-- 018_endpoint_incidents: notices per incident, not per flip (docs/rules.md#notifications). An endpoint's incident
-- opens with its first degradation (or a pause on a healthy endpoint) and ends when a recovery has held for the reopen
-- window, or when it is reactivated by hand; a degradation within the window after a recovery reopens it, and the
-- recovery's outbox row, due only at the window's end, is taken back unsent. One row per endpoint: its latest incident.
-- Aligned with ../../postgres/migrations/018_endpoint_incidents.sql.
CREATE TABLE endpoint_incidents (
  endpoint_id TEXT PRIMARY KEY REFERENCES endpoints(id) ON DELETE CASCADE,
  tenant_id TEXT NOT NULL,
  notice_id TEXT,                                -- the notice that opened it (endpoint.degraded, or endpoint.paused)
  paused_notice_id TEXT,                         -- its endpoint.paused notice, once paused by health
  opened_at INTEGER NOT NULL,
  recovered_at INTEGER,                             -- its last recovery, while that recovery is not yet told (or once it ended so)
  recovery_id TEXT,                              -- that recovery's endpoint.recovered outbox row, due at the window's end
  ended_at INTEGER                                  -- null while open; the held recovery's time, or the reactivation's
);
-- When its incident ends, a degraded or paused notice is resolved.
ALTER TABLE notices ADD COLUMN resolved_at INTEGER;
-- Endpoints in trouble now (degraded, or paused by health) have an open incident, named by their latest notices.
INSERT INTO endpoint_incidents (endpoint_id, tenant_id, notice_id, paused_notice_id, opened_at)
SELECT e.id, e.tenant_id,
  (SELECT max(o.id) FROM outbox o WHERE o.endpoint_id = e.id AND o.kind IN ('endpoint.degraded', 'endpoint.paused')),
  (SELECT max(o.id) FROM outbox o WHERE o.endpoint_id = e.id AND o.kind = 'endpoint.paused' AND e.status = 'paused'),
  COALESCE(e.failing_since, e.paused_at, e.updated_at)
FROM endpoints e
WHERE e.status = 'degraded' OR (e.status = 'paused' AND e.pause_reason <> 'manual');
