-- get-tenant: params :id
SELECT * FROM tenants WHERE id = :id
