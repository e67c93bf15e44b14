-- add-delivery: one more delivery of an existing event to one endpoint, due now, under its single replay (a Svix
-- `resend`: a new manual attempt even after success; its attempts are the replay's). Unordered.
-- params :id, :tenant_id, :event_pk, :endpoint_id, :replay_id, :now
INSERT INTO deliveries (id, tenant_id, event_pk, endpoint_id, status, is_money, next_attempt_at, replay_id, created_at, updated_at)
SELECT :id, e.tenant_id, e.id, :endpoint_id, 'pending', e.is_money, :now, :replay_id, :now, :now
FROM events e WHERE e.tenant_id = :tenant_id AND e.id = :event_pk
