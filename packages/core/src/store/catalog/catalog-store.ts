// The catalog part of the store: tenants, API keys, endpoints and their secrets, event types, portal links, settings.
import type { Endpoint, Environment, Tenant } from '../../domain.ts';
import type { Page } from '../page.ts';

/** A tenant as created: the environment defaults to live (docs/rules.md#environments). */
/** A new tenant has no limits of its own (they are set by an update). */
export type NewTenant = Omit<Tenant, 'environment' | 'limits'> & { environment?: Environment };

/** A tenant's count for one UTC day, as the accept transaction keeps it (docs/rules.md#tenant-limits). */
export interface TenantUsageRow {
  events: number;
  /** The minute (its start, ms) `minuteEvents` counts; `prevMinuteEvents` counts the minute before it. */
  minuteAt: number;
  minuteEvents: number;
  prevMinuteEvents: number;
  /** The highest daily-quota notice written that day: 0, 80 or 100. */
  notifiedPercent: number;
}

/** What may change on a tenant: everything but its id, creation time and environment. */
export type TenantPatch = Partial<Omit<Tenant, 'id' | 'createdAt' | 'environment'>>;

export interface ApiKeyRecord {
  id: string;
  tenantId: string;
  name: string;
  prefix: string;
  hash: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface SealedSecret {
  kid: string;
  endpointId: string;
  sealed: string;
  createdAt: number;
  expiresAt: number | null;
}

export interface EventTypeRow {
  name: string;
  description: string;
  definition: unknown;
  updatedAt: number;
}

/** An endpoint as stored: with the version every write raises. */
export type StoredEndpoint = Endpoint & { version: number };

/** The endpoint fields a patch may set (updateEndpoint, a catch-up's reactivation); the rest are the store's own. */
export const PATCHABLE_ENDPOINT_FIELDS = [
  'url',
  'description',
  'eventTypes',
  'policy',
  'scheme',
  'timeoutMs',
  'maxConcurrency',
  'ordering',
  'orderingOnFailure',
  'payloadFilter',
  'customHeaders',
  'rateLimitPerS',
  'status',
  'pauseReason',
] as const satisfies ReadonlyArray<keyof Endpoint>;

export type EndpointPatch = Partial<Pick<Endpoint, (typeof PATCHABLE_ENDPOINT_FIELDS)[number]>> & {
  /** Clears the failure streak and degradation (a URL change or reactivation does). */
  clearHealth?: boolean;
};

export interface CatalogStore {
  // settings (admin token hash, etc.)
  getSetting(key: string): Promise<string | null>;
  setSetting(key: string, value: string): Promise<void>;

  // tenants
  createTenant(tenant: NewTenant): Promise<void>;
  getTenant(id: string): Promise<Tenant | null>;
  /** Oldest first (newest first with `newestFirst`); with `environment`, only that environment's tenants. */
  listTenants(
    cursor: string | null,
    limit: number,
    filter?: { environment?: Environment; newestFirst?: boolean },
  ): Promise<Page<Tenant>>;
  updateTenant(id: string, patch: TenantPatch, now: number): Promise<Tenant | null>;
  deleteTenant(id: string): Promise<boolean>;

  // api keys
  createApiKey(key: ApiKeyRecord): Promise<void>;
  listApiKeys(tenantId: string): Promise<ApiKeyRecord[]>;
  revokeApiKey(tenantId: string, id: string, now: number): Promise<boolean>;
  /** Sets a live key's last_used_at to `now` unless it was set less than `granularityMs` before. */
  touchApiKey(id: string, now: number, granularityMs: number): Promise<void>;
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null>;

  // console portal links (single-use sign-in links; only the token's sha256 is stored)
  /** Records a link and forgets the ones that expired before `now`. */
  createPortalLink(
    link: { hash: string; tenantId: string; createdAt: number; expiresAt: number },
    now: number,
  ): Promise<void>;
  /** Marks the link used and returns its tenant, if it was unused and unexpired at `now`; else null. Atomic: one use wins. */
  consumePortalLink(hash: string, now: number): Promise<string | null>;

  /** The tenant's count for the UTC day starting at `day` (docs/rules.md#tenant-limits); null: nothing accepted that day. */
  getTenantUsage(tenantId: string, day: number): Promise<TenantUsageRow | null>;

  // endpoints
  /**
   * Creates the endpoint with its first secret; with `maxEndpoints`, only while the tenant has fewer (counted under a
   * lock, so concurrent creations cannot pass the cap together): false when it has that many already.
   */
  createEndpoint(endpoint: Endpoint, secret: SealedSecret, maxEndpoints?: number | null): Promise<boolean>;
  countTenantEndpoints(tenantId: string): Promise<number>;
  getEndpoint(tenantId: string, id: string): Promise<(Endpoint & { version: number }) | null>;
  listEndpoints(tenantId: string, cursor: string | null, limit: number): Promise<Page<Endpoint>>;
  /** Every endpoint of a tenant that is not deleted; used for fan-out. */
  listTenantEndpoints(tenantId: string): Promise<Endpoint[]>;
  updateEndpoint(
    tenantId: string,
    id: string,
    patch: EndpointPatch,
    now: number,
  ): Promise<(Endpoint & { version: number }) | null>;
  deleteEndpoint(tenantId: string, id: string): Promise<boolean>;
  listSecrets(endpointId: string): Promise<SealedSecret[]>;
  /** Adds a new current secret and retires the current ones at `retireAt`. */
  rotateSecret(endpointId: string, secret: SealedSecret, retireAt: number, now: number): Promise<void>;

  // event types
  putEventType(row: EventTypeRow): Promise<void>;
  getEventType(name: string): Promise<EventTypeRow | null>;
  listEventTypes(): Promise<EventTypeRow[]>;
}
