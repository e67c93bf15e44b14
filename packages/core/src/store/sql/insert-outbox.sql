-- insert-outbox: a notification, in the transaction of the transition that causes it; a retried commit writes it once.
-- params: outbox columns (:id, :tenant_id, :kind, :subject_id, :endpoint_id, :data, :due_at, :now)
INSERT INTO outbox (id, tenant_id, kind, subject_id, endpoint_id, data, status, tries, due_at, created_at, updated_at)
VALUES (:id, :tenant_id, :kind, :subject_id, :endpoint_id, :data, 'pending', 0, :due_at, :now, :now)
ON CONFLICT (id) DO NOTHING
