// A tenant as the API answers it, and its JSON Schema.
import type { Tenant } from '@hookline/core';
import { named } from '../../http/schema-names.ts';
import { bool, environment, iso, nullableStr, obj, str, time } from '../../http/views.ts';
import { TenantLimitsSchema, tenantLimitsView } from './tenant-limits-view.ts';

export const TenantSchema = named(
  'Tenant',
  obj({
    id: str,
    name: str,
    environment,
    owner_emails: { type: 'array', items: str },
    notify_email: bool,
    operations_endpoint_id: nullableStr,
    limits: TenantLimitsSchema,
    created_at: time,
    updated_at: time,
  }),
);
export const tenantView = (t: Tenant) => ({
  id: t.id,
  name: t.name,
  environment: t.environment,
  owner_emails: t.ownerEmails,
  notify_email: t.notifyEmail,
  operations_endpoint_id: t.operationsEndpointId,
  limits: tenantLimitsView(t.limits),
  created_at: iso(t.createdAt),
  updated_at: iso(t.updatedAt),
});
