// Who the caller is, as GET /v1/whoami answers it: the admin, or a tenant API key and its tenant.
import type { Principal } from '../../http/auth.ts';
import { named } from '../../http/schema-names.ts';

export const WhoamiSchema = named('Whoami', {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'tenant_id', 'api_key_id', 'environment'],
  properties: {
    kind: {
      type: 'string',
      enum: ['admin', 'tenant'],
      description: 'admin: the admin token (or an admin console session); tenant: a tenant API key or portal session.',
    },
    tenant_id: { type: ['string', 'null'], description: 'With kind tenant: the one tenant these credentials reach.' },
    api_key_id: { type: ['string', 'null'], description: 'With kind tenant: the API key (or session key) in use.' },
    environment: {
      type: ['string', 'null'],
      enum: ['test', 'live', null],
      description: "With kind tenant: its tenant's environment.",
    },
  },
});

export const whoamiView = (p: Principal) =>
  p.kind === 'admin'
    ? { kind: 'admin' as const, tenant_id: null, api_key_id: null, environment: null }
    : { kind: 'tenant' as const, tenant_id: p.tenantId, api_key_id: p.keyId, environment: p.environment };
