-- count-tenant-endpoints: how many endpoints a tenant has (against its max_endpoints).
-- params: :tenant_id
SELECT count(*) AS n FROM endpoints WHERE tenant_id = :tenant_id
