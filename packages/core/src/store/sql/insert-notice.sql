-- insert-notice: idempotent by id (the outbox row's): a notification sent again after a crash is listed once.
-- params: notice columns
INSERT INTO notices (id, tenant_id, kind, subject_id, message, data, created_at)
VALUES (:id, :tenant_id, :kind, :subject_id, :message, :data, :created_at)
ON CONFLICT (id) DO NOTHING
