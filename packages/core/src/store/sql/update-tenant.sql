-- update-tenant: params :id, :name, :owner_emails, :operations_endpoint_id, :notify_email, :now
UPDATE tenants SET name = :name, owner_emails = :owner_emails, operations_endpoint_id = :operations_endpoint_id,
       notify_email = :notify_email, updated_at = :now
WHERE id = :id
