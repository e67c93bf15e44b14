-- insert-notice: idempotent by id (the outbox row's): a notification sent again after a crash is listed once.
-- params: notice columns (:resolved_at: set when the notice's incident already ended)
INSERT INTO notices (id, tenant_id, kind, subject_id, message, data, created_at, resolved_at)
VALUES (:id, :tenant_id, :kind, :subject_id, :message, :data, :created_at, :resolved_at)
ON CONFLICT (id) DO NOTHING
