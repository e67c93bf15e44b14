-- put-endpoint-incident: writes an endpoint's incident row, a new incident replacing the one before it.
-- params: :endpoint_id, :tenant_id, :notice_id, :paused_notice_id, :opened_at, :recovered_at, :recovery_id, :ended_at
INSERT INTO endpoint_incidents
  (endpoint_id, tenant_id, notice_id, paused_notice_id, opened_at, recovered_at, recovery_id, ended_at)
VALUES (:endpoint_id, :tenant_id, :notice_id, :paused_notice_id, :opened_at, :recovered_at, :recovery_id, :ended_at)
ON CONFLICT (endpoint_id) DO UPDATE SET
  tenant_id = excluded.tenant_id, notice_id = excluded.notice_id, paused_notice_id = excluded.paused_notice_id,
  opened_at = excluded.opened_at, recovered_at = excluded.recovered_at, recovery_id = excluded.recovery_id,
  ended_at = excluded.ended_at
