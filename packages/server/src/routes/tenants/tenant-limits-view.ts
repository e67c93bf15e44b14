// A tenant's limits and its usage today as the API answers them (docs/rules.md#tenant-limits), with their schemas.
import type { TenantLimits, TenantUsage } from '@hookline/core';
import { named } from '../../http/schema-names.ts';
import { int, iso, obj, time } from '../../http/views.ts';

const nullableNumber = { type: ['number', 'null'] } as const;
const nullableInteger = { type: ['integer', 'null'] } as const;

export const TenantLimitsSchema = named(
  'TenantLimits',
  obj(
    {
      events_per_s: { ...nullableNumber, description: 'New events accepted per second, across every API process.' },
      events_per_day: { ...nullableInteger, description: 'New events accepted per UTC day.' },
      max_endpoints: nullableInteger,
      max_payload_bytes: { ...nullableInteger, description: 'Largest event envelope accepted, in bytes.' },
    },
    'null: no limit of its own (on a tenant, the configured default applies; in usage, none applies).',
  ),
);

/** The PATCH body's `limits`: every field optional; null takes the configured default. Admin only. */
export const TenantLimitsPatchSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  description:
    'Admin only (403 forbidden for a tenant key). A field left out stays; null takes the configured default (docs/rules.md#tenant-limits).',
  properties: {
    events_per_s: { type: ['number', 'null'], exclusiveMinimum: 0, maximum: 1_000_000 },
    events_per_day: { type: ['integer', 'null'], minimum: 0, maximum: 1_000_000_000_000 },
    max_endpoints: { type: ['integer', 'null'], minimum: 0, maximum: 1_000_000 },
    max_payload_bytes: { type: ['integer', 'null'], minimum: 1, maximum: 1_000_000_000 },
  },
} as const;

export const tenantLimitsView = (l: TenantLimits) => ({
  events_per_s: l.eventsPerS,
  events_per_day: l.eventsPerDay,
  max_endpoints: l.maxEndpoints,
  max_payload_bytes: l.maxPayloadBytes,
});

export const TenantUsageSchema = named(
  'TenantUsage',
  obj({
    day: { type: 'string', format: 'date', description: 'The UTC day counted.' },
    resets_at: { ...time, description: 'The next UTC midnight, when the daily count starts again.' },
    events_today: { ...int, description: 'New events accepted today (an idempotent replay is not counted).' },
    events_per_day: { ...nullableInteger, description: 'The daily limit that applies; null: none.' },
    percent: { ...nullableNumber, description: 'events_today against events_per_day; null without a daily limit.' },
    events_this_minute: int,
    rate_per_s: { type: 'number', description: 'New events per second, averaged over the last whole minute.' },
    endpoints: int,
    max_endpoints: nullableInteger,
    // What applies now (the tenant's own limits, else the defaults), and the tenant's own (null: the default).
    limits: TenantLimitsSchema,
    own_limits: TenantLimitsSchema,
  }),
);

export const tenantUsageView = (u: TenantUsage) => ({
  day: iso(u.day)!.slice(0, 10),
  resets_at: iso(u.day + 86_400_000),
  events_today: u.eventsToday,
  events_per_day: u.limits.eventsPerDay,
  percent: u.percent,
  events_this_minute: u.eventsThisMinute,
  rate_per_s: u.ratePerS,
  endpoints: u.endpoints,
  max_endpoints: u.limits.maxEndpoints,
  limits: tenantLimitsView(u.limits),
  own_limits: tenantLimitsView(u.own),
});
