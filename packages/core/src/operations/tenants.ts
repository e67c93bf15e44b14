// Tenants: create, read, edit and delete (with everything they own); every tenant write goes through here.
import type { Actor } from '../audit/audit-types.ts';
import {
  DEFAULT_ENVIRONMENT,
  type Environment,
  type Metadata,
  NO_TENANT_LIMITS,
  type PayloadFormat,
  type Tenant,
  type TenantLimits,
} from '../domain.ts';
import { fail } from '../errors.ts';
import { newId } from '../ids.ts';
import { utcDay } from '../pacing/tenant-admission.ts';
import { isUniqueViolation } from '../store/storage-fault.ts';
import type { Page, TenantLabels } from '../store/store.ts';
import { audited } from './audit.ts';
import type { EngineParts } from './engine-parts.ts';

export interface TenantInput {
  /** A fixed id (`hookline simulate`'s tenant); default a new `ten_` id. Never taken from a request. */
  id?: string;
  name: string;
  /** `test` or `live` (default live), fixed at creation (docs/rules.md#environments). */
  environment?: Environment;
  owner_emails?: string[];
  notify_email?: boolean;
  /** The Svix-compatible API's labels (docs/svix-compatibility.md); a uid another tenant holds is 409 uid_taken. */
  uid?: string | null;
  metadata?: Metadata;
  payload_format?: PayloadFormat;
  app_rate_limit?: number | null;
}

export interface TenantPatch {
  /** Accepted only when it names the tenant's own environment: a tenant never moves between test and live. */
  environment?: Environment;
  name?: string;
  owner_emails?: string[];
  notify_email?: boolean;
  /** An endpoint of this tenant, or null for none. */
  operations_endpoint_id?: string | null;
  /** The admin's limits (docs/rules.md#tenant-limits): a field left out stays, null takes the configured default. */
  limits?: TenantLimitsPatch;
}

export interface TenantLimitsPatch {
  events_per_s?: number | null;
  events_per_day?: number | null;
  max_endpoints?: number | null;
  max_payload_bytes?: number | null;
}

/** A tenant's usage today against its limits (docs/rules.md#tenant-limits). */
export interface TenantUsage {
  /** The UTC day counted (its midnight, ms). */
  day: number;
  eventsToday: number;
  /** eventsToday against the daily limit, in percent (null: no daily limit). */
  percent: number | null;
  /** Events accepted in the current minute so far, and the average per second over the last whole minute. */
  eventsThisMinute: number;
  ratePerS: number;
  endpoints: number;
  /** What applies: the tenant's own limits, else the configured defaults (null: unlimited). */
  limits: TenantLimits;
  /** The tenant's own limits (null: the default applies). */
  own: TenantLimits;
}

export class TenantOperations {
  readonly #p: EngineParts;
  readonly #onRevoke: () => void;

  /** `onRevoke` runs after a tenant is deleted: whatever remembers credentials forgets them. */
  constructor(parts: EngineParts, onRevoke: () => void) {
    this.#p = parts;
    this.#onRevoke = onRevoke;
  }

  async create(input: TenantInput, actor?: Actor): Promise<Tenant> {
    const now = this.#p.clock.now();
    const tenant: Tenant = {
      id: input.id ?? newId('ten', now),
      name: input.name,
      environment: input.environment ?? DEFAULT_ENVIRONMENT,
      ownerEmails: input.owner_emails ?? [],
      operationsEndpointId: null,
      notifyEmail: input.notify_email ?? true,
      uid: input.uid ?? null,
      metadata: input.metadata ?? {},
      payloadFormat: input.payload_format ?? 'envelope',
      appRateLimit: input.app_rate_limit ?? null,
      limits: { ...NO_TENANT_LIMITS },
      createdAt: now,
      updatedAt: now,
    };
    const uid = tenant.uid;
    if (uid && (await this.#p.store.svix.findTenantByUid(uid))) throw fail('uid_taken', { uid, what: 'application' });
    const target = { type: 'tenant' as const, id: tenant.id, tenantId: tenant.id };
    try {
      await audited(this.#p, actor, { action: 'tenant.create', target }, 'createTenant', tenant);
    } catch (err) {
      // Two creations with one uid at once: the index keeps one, the other is told.
      if (uid && isUniqueViolation(err)) throw fail('uid_taken', { uid, what: 'application' });
      throw err;
    }
    return tenant;
  }

  /** Oldest first (newest first with `newestFirst`); with `environment`, only that environment's tenants. */
  list(
    cursor: string | null,
    limit: number,
    filter: { environment?: Environment; newestFirst?: boolean } = {},
  ): Promise<Page<Tenant>> {
    return this.#p.store.catalog.listTenants(cursor, limit, filter);
  }

  /** The tenant by its id or, failing that, its uid (the Svix-compatible API's `app_id`); null when neither. */
  async findByIdOrUid(ref: string): Promise<Tenant | null> {
    return (await this.#p.store.catalog.getTenant(ref)) ?? (await this.#p.store.svix.findTenantByUid(ref));
  }

  /** Sets every Svix label of the tenant at once (docs/svix-compatibility.md); 409 uid_taken, 404 tenant_not_found. */
  async setLabels(id: string, labels: TenantLabels, actor?: Actor): Promise<Tenant> {
    const p = this.#p;
    if (labels.uid) {
      const holder = await p.store.svix.findTenantByUid(labels.uid);
      if (holder && holder.id !== id) throw fail('uid_taken', { uid: labels.uid, what: 'application' });
    }
    try {
      const what = { action: 'tenant.labels', target: { type: 'tenant' as const, id, tenantId: id } };
      if (!(await audited(p, actor, what, 'setTenantLabels', id, labels, p.clock.now())))
        throw fail('tenant_not_found');
    } catch (err) {
      if (labels.uid && isUniqueViolation(err)) throw fail('uid_taken', { uid: labels.uid, what: 'application' });
      throw err;
    }
    return this.get(id);
  }

  /** The tenant, or null when absent. */
  find(id: string): Promise<Tenant | null> {
    return this.#p.store.catalog.getTenant(id);
  }

  async get(id: string): Promise<Tenant> {
    const t = await this.#p.store.catalog.getTenant(id);
    if (!t) throw fail('tenant_not_found');
    return t;
  }

  /** Edits a tenant; an operations endpoint must be one of its own (400 naming the field otherwise). */
  async update(id: string, input: TenantPatch, actor?: Actor): Promise<Tenant> {
    if (input.environment !== undefined) {
      // Test and live stay apart (docs/rules.md#environments): a tenant never moves between them.
      const current = (await this.get(id)).environment;
      if (current !== input.environment)
        throw fail('environment_immutable', { environment: current, requested: input.environment });
    }
    const patch: Partial<Omit<Tenant, 'id' | 'createdAt' | 'environment'>> = {};
    if (input.name !== undefined) patch.name = input.name;
    if (input.owner_emails !== undefined) patch.ownerEmails = input.owner_emails;
    if (input.notify_email !== undefined) patch.notifyEmail = input.notify_email;
    if (input.operations_endpoint_id !== undefined) {
      if (
        input.operations_endpoint_id !== null &&
        !(await this.#p.store.catalog.getEndpoint(id, input.operations_endpoint_id))
      ) {
        const message = 'is not an endpoint of this tenant';
        throw fail(
          'invalid_request',
          { detail: `/operations_endpoint_id ${message}` },
          { details: [{ in: 'body', path: '/operations_endpoint_id', message }] },
        );
      }
      patch.operationsEndpointId = input.operations_endpoint_id;
    }
    if (input.limits !== undefined) {
      const cur = (await this.get(id)).limits;
      const l = input.limits;
      const pick = (v: number | null | undefined, was: number | null) => (v === undefined ? was : v);
      patch.limits = {
        eventsPerS: pick(l.events_per_s, cur.eventsPerS),
        eventsPerDay: pick(l.events_per_day, cur.eventsPerDay),
        maxEndpoints: pick(l.max_endpoints, cur.maxEndpoints),
        maxPayloadBytes: pick(l.max_payload_bytes, cur.maxPayloadBytes),
      };
    }
    const target = { type: 'tenant' as const, id, tenantId: id };
    const t = await audited(
      this.#p,
      actor,
      { action: 'tenant.update', target },
      'updateTenant',
      id,
      patch,
      this.#p.clock.now(),
    );
    if (!t) throw fail('tenant_not_found');
    return t;
  }

  /** Today's count (UTC, by the engine's clock), the recent rate and the endpoints, against the limits that apply. */
  async usage(id: string): Promise<TenantUsage> {
    const p = this.#p;
    const tenant = await this.get(id);
    const now = p.clock.now();
    const day = utcDay(now);
    const minute = now - (now % 60_000);
    const [u, endpoints] = await Promise.all([
      p.store.catalog.getTenantUsage(id, day),
      p.store.catalog.countTenantEndpoints(id),
    ]);
    const defaults = p.settings.tenantLimits ?? NO_TENANT_LIMITS;
    const own = tenant.limits;
    const limits: TenantLimits = {
      eventsPerS: own.eventsPerS ?? defaults.eventsPerS,
      eventsPerDay: own.eventsPerDay ?? defaults.eventsPerDay,
      maxEndpoints: own.maxEndpoints ?? defaults.maxEndpoints,
      maxPayloadBytes: own.maxPayloadBytes ?? defaults.maxPayloadBytes,
    };
    const eventsToday = u?.events ?? 0;
    // The last whole minute: the row's previous minute while it counts this one, its own when it last counted the one before.
    const lastMinute = !u
      ? 0
      : u.minuteAt === minute
        ? u.prevMinuteEvents
        : u.minuteAt === minute - 60_000
          ? u.minuteEvents
          : 0;
    return {
      day,
      eventsToday,
      percent:
        limits.eventsPerDay === null
          ? null
          : limits.eventsPerDay === 0
            ? 100
            : Math.round((eventsToday * 1000) / limits.eventsPerDay) / 10,
      eventsThisMinute: u && u.minuteAt === minute ? u.minuteEvents : 0,
      ratePerS: Math.round((lastMinute * 100) / 60) / 100,
      endpoints,
      limits,
      own,
    };
  }

  /**
   * Deletes a tenant and everything it owns, as endpoints.delete does for each of its endpoints; 404
   * `tenant_not_found` when absent. Its API keys stop working in this process at once.
   */
  async delete(id: string, actor?: Actor): Promise<void> {
    const p = this.#p;
    const endpoints = await p.store.catalog.listTenantEndpoints(id);
    const target = { type: 'tenant' as const, id, tenantId: id };
    if (!(await audited(p, actor, { action: 'tenant.delete', target }, 'deleteTenant', id)))
      throw fail('tenant_not_found');
    p.dispatcher.forgetTenant(id);
    p.ingest.invalidate(id);
    for (const ep of endpoints) {
      p.secrets.forget(ep.id);
      p.egress.forget(ep.id);
      p.sender.closeEndpoint?.(ep.id);
    }
    this.#onRevoke();
  }
}
