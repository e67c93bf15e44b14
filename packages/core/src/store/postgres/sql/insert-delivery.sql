-- insert-delivery: one delivery of a new event.
-- params: :id, :tenant_id, :event_pk, :endpoint_id, :status, :is_money, :next_attempt_at, :now
INSERT INTO deliveries (id, tenant_id, event_pk, endpoint_id, status, is_money, next_attempt_at, created_at, updated_at)
VALUES (:id, :tenant_id, :event_pk, :endpoint_id, :status, :is_money, :next_attempt_at, :now, :now)
