-- insert-delivery: one delivery of a new event; a test delivery is inserted already leased by its sender.
-- params: :id, :tenant_id, :event_pk, :endpoint_id, :status, :is_money, :next_attempt_at, :lease_until, :leased_by, :now
INSERT INTO deliveries (id, tenant_id, event_pk, endpoint_id, status, is_money, next_attempt_at, lease_until, leased_by,
                        created_at, updated_at)
VALUES (:id, :tenant_id, :event_pk, :endpoint_id, :status, :is_money, :next_attempt_at, :lease_until, :leased_by, :now, :now)
