// A tenant API key as the API answers it (never the key itself: that is shown once, at creation), and its JSON Schema.
import type { ApiKeyRecord } from '@hookline/core';
import { named } from '../../http/schema-names.ts';
import { iso, nullableTime, obj, str, time } from '../../http/views.ts';

export const ApiKeySchema = named(
  'ApiKey',
  obj({
    id: str,
    tenant_id: str,
    name: str,
    prefix: str,
    created_at: time,
    last_used_at: {
      ...nullableTime,
      description: 'When the key last authenticated a request, to the minute; null: never used.',
    },
    revoked_at: nullableTime,
  }),
);
export const apiKeyView = (k: ApiKeyRecord) => ({
  id: k.id,
  tenant_id: k.tenantId,
  name: k.name,
  prefix: k.prefix,
  created_at: iso(k.createdAt),
  last_used_at: iso(k.lastUsedAt),
  revoked_at: iso(k.revokedAt),
});
