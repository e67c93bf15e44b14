-- purge-tenant-usage: tenants' daily counts of days that started before :before (docs/rules.md#tenant-limits).
-- params: :before
DELETE FROM tenant_usage WHERE day < :before
