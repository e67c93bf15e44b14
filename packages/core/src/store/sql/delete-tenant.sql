-- delete-tenant: params :id (endpoints, events, keys cascade)
DELETE FROM tenants WHERE id = :id
