// Row ↔ record mapping of the catalog's tenants, API keys, secrets and event types (both dialects, same columns).
import { DEFAULT_ENVIRONMENT, type Tenant, type TenantLimits } from '../../domain.ts';
import { json, num, numOrNull, type Row } from '../row-values.ts';
import type { ApiKeyRecord, EventTypeRow, NewTenant, SealedSecret } from './catalog-store.ts';

export function tenantFromRow(r: Row): Tenant {
  return {
    id: r.id,
    name: r.name,
    environment: r.environment,
    ownerEmails: json(r.owner_emails, []),
    operationsEndpointId: r.operations_endpoint_id ?? null,
    notifyEmail: Boolean(num(r.notify_email)),
    uid: r.uid ?? null,
    metadata: json(r.metadata, {}),
    payloadFormat: r.payload_format ?? 'envelope',
    appRateLimit: numOrNull(r.app_rate_limit ?? null),
    limits: {
      eventsPerS: numOrNull(r.events_per_s),
      eventsPerDay: numOrNull(r.events_per_day),
      maxEndpoints: numOrNull(r.max_endpoints),
      maxPayloadBytes: numOrNull(r.max_payload_bytes),
    },
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
  };
}

export function tenantToRow(t: NewTenant): Row {
  return {
    id: t.id,
    name: t.name,
    environment: t.environment ?? DEFAULT_ENVIRONMENT,
    owner_emails: JSON.stringify(t.ownerEmails),
    operations_endpoint_id: t.operationsEndpointId,
    notify_email: t.notifyEmail ? 1 : 0,
    uid: t.uid ?? null,
    metadata: t.metadata && Object.keys(t.metadata).length ? JSON.stringify(t.metadata) : null,
    payload_format: t.payloadFormat ?? 'envelope',
    app_rate_limit: t.appRateLimit ?? null,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
  };
}

export function tenantLimitsToRow(l: TenantLimits): Row {
  return {
    events_per_s: l.eventsPerS,
    events_per_day: l.eventsPerDay,
    max_endpoints: l.maxEndpoints,
    max_payload_bytes: l.maxPayloadBytes,
  };
}

export function apiKeyFromRow(r: Row): ApiKeyRecord {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    name: r.name,
    prefix: r.prefix,
    hash: r.hash,
    createdAt: num(r.created_at),
    lastUsedAt: numOrNull(r.last_used_at),
    revokedAt: numOrNull(r.revoked_at),
  };
}

export function apiKeyToRow(k: ApiKeyRecord): Row {
  return {
    id: k.id,
    tenant_id: k.tenantId,
    name: k.name,
    prefix: k.prefix,
    hash: k.hash,
    created_at: k.createdAt,
    last_used_at: k.lastUsedAt,
    revoked_at: k.revokedAt,
  };
}

export function secretFromRow(r: Row): SealedSecret {
  return {
    kid: r.kid,
    endpointId: r.endpoint_id,
    sealed: r.sealed,
    createdAt: num(r.created_at),
    expiresAt: numOrNull(r.expires_at),
  };
}

export function eventTypeFromRow(r: Row): EventTypeRow {
  return { name: r.name, description: r.description, definition: json(r.definition, {}), updatedAt: num(r.updated_at) };
}
