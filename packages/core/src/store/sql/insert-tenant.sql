-- insert-tenant: params tenant columns
INSERT INTO tenants (id, name, environment, owner_emails, operations_endpoint_id, notify_email, created_at, updated_at)
VALUES (:id, :name, :environment, :owner_emails, :operations_endpoint_id, :notify_email, :created_at, :updated_at)
