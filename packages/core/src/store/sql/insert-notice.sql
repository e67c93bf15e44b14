-- insert-notice: params notice columns
INSERT INTO notices (id, tenant_id, kind, subject_id, message, data, created_at)
VALUES (:id, :tenant_id, :kind, :subject_id, :message, :data, :created_at)
