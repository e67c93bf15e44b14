-- insert-tenant: params tenant columns
INSERT INTO tenants (id, name, environment, owner_emails, operations_endpoint_id, notify_email, uid, metadata,
                     payload_format, app_rate_limit, created_at, updated_at)
VALUES (:id, :name, :environment, :owner_emails, :operations_endpoint_id, :notify_email, :uid, :metadata,
        :payload_format, :app_rate_limit, :created_at, :updated_at)
