// Queue depth, how long the oldest due delivery has waited, and per-endpoint success rates: what an operator watches.
import { ENDPOINT_STATUSES, QUEUED_STATUSES, type QueueStats, type TenantStats } from '@hookline/core';
import type { FastifyInstance } from 'fastify';
import { parseTime } from '../http/query.ts';
import { addRoute, paramsSchema } from '../http/route.ts';
import { named } from '../http/schema-names.ts';
import type { Runtime } from '../runtime.ts';

const tag = 'operations';
const iso = (ms: number) => new Date(ms).toISOString();
const count = { type: 'integer', minimum: 0 };
const Queue = named('QueueDepth', {
  type: 'object',
  required: [...QUEUED_STATUSES],
  properties: Object.fromEntries(QUEUED_STATUSES.map((s) => [s, count])),
  description: 'Deliveries not yet terminal, by status.',
});
const age = {
  type: ['integer', 'null'],
  description:
    'Milliseconds the oldest due pending delivery has waited past its next_attempt_at; null when nothing due waits.',
};
const QueueStatsSchema = named('QueueStats', {
  type: 'object',
  required: ['at', 'queue', 'oldest_due_age_ms'],
  properties: { at: { type: 'string', format: 'date-time' }, queue: Queue, oldest_due_age_ms: age },
});
const EndpointStatsSchema = named('EndpointStats', {
  type: 'object',
  required: [
    'endpoint_id',
    'endpoint_status',
    'queue',
    'oldest_due_age_ms',
    'succeeded',
    'failed',
    'success_rate',
    'attempts',
    'avg_latency_ms',
  ],
  properties: {
    endpoint_id: { type: 'string' },
    endpoint_status: { type: 'string', enum: [...ENDPOINT_STATUSES] },
    queue: Queue,
    oldest_due_age_ms: age,
    succeeded: {
      ...count,
      description:
        'Deliveries that ended succeeded by an attempt in the window (per-minute counters, docs/rules.md#stats-counters).',
    },
    failed: {
      ...count,
      description: 'Deliveries that ended failed (dead letter) by an attempt in the window.',
    },
    success_rate: {
      type: ['number', 'null'],
      description: 'succeeded / (succeeded + failed); null when none ended in the window.',
    },
    attempts: { ...count, description: 'Attempts made in the window, retries included.' },
    avg_latency_ms: {
      type: ['number', 'null'],
      description: "The attempts' mean duration in the window (ms, one decimal); null when none was made.",
    },
  },
});

const queueView = (s: QueueStats) => ({ at: iso(s.at), queue: s.queued, oldest_due_age_ms: s.oldestDueAgeMs });

const tenantView = (s: TenantStats) => ({
  ...queueView(s),
  since: iso(s.since),
  endpoints: s.endpoints.map((e) => ({
    endpoint_id: e.endpointId,
    endpoint_status: e.endpointStatus,
    queue: e.queued,
    oldest_due_age_ms: e.oldestDueAgeMs,
    succeeded: e.succeeded,
    failed: e.failed,
    success_rate: e.successRate,
    attempts: e.latencyCount,
    avg_latency_ms: e.latencyCount === 0 ? null : Math.round((e.latencyMsSum / e.latencyCount) * 10) / 10,
  })),
});

export function statsRoutes(app: FastifyInstance, rt: Runtime): void {
  addRoute(app, {
    method: 'GET',
    url: '/v1/stats',
    operationId: 'getStats',
    tag,
    auth: 'admin',
    summary:
      "Every tenant's queue depth by status and how long the oldest due delivery has waited (workers falling behind)",
    response: { 200: QueueStatsSchema },
    handler: async () => queueView(await rt.engine.stats.queue()),
  });

  addRoute<{ tenant: string }, { since?: string }>(app, {
    method: 'GET',
    url: '/v1/tenants/:tenant/stats',
    operationId: 'getTenantStats',
    tag,
    auth: 'tenant',
    summary:
      "The tenant's queue and, per endpoint, its queue, oldest due delivery and success rate over deliveries that ended since `since` (default 24 h ago)",
    params: paramsSchema('tenant'),
    querystring: {
      type: 'object',
      additionalProperties: false,
      properties: { since: { type: 'string', description: 'ISO-8601; default 24 h ago' } },
    },
    response: {
      200: {
        ...QueueStatsSchema,
        required: [...QueueStatsSchema.required, 'since', 'endpoints'],
        properties: {
          ...QueueStatsSchema.properties,
          since: { type: 'string', format: 'date-time' },
          endpoints: { type: 'array', items: EndpointStatsSchema },
        },
      },
    },
    handler: async (req) => {
      const since = parseTime(req.query.since, 'query', '/since');
      return tenantView(await rt.engine.stats.tenant(req.params.tenant, since === undefined ? {} : { since }));
    },
  });

  addRoute<{ tenant: string }>(app, {
    method: 'GET',
    url: '/v1/tenants/:tenant/stats/minutes',
    operationId: 'getTenantMinuteStats',
    tag,
    auth: 'tenant',
    summary:
      "The tenant's deliveries per minute over the last 24 h, by the minute of their last attempt: succeeded, retrying (pending after an attempt), failed",
    description:
      'Minutes without deliveries are left out. A delivery counts once, in the minute of its latest attempt, in its current state.',
    params: paramsSchema('tenant'),
    response: {
      200: {
        type: 'object',
        required: ['since', 'until', 'minutes'],
        additionalProperties: false,
        properties: {
          since: { type: 'string', format: 'date-time' },
          until: { type: 'string', format: 'date-time' },
          minutes: {
            type: 'array',
            items: {
              type: 'object',
              required: ['at', 'succeeded', 'retrying', 'failed'],
              additionalProperties: false,
              properties: {
                at: { type: 'string', format: 'date-time' },
                succeeded: count,
                retrying: count,
                failed: count,
              },
            },
          },
        },
      },
    },
    handler: async (req) => {
      const r = await rt.engine.stats.perMinute(req.params.tenant);
      return {
        since: iso(r.since),
        until: iso(r.until),
        minutes: r.minutes.map((m) => ({
          at: iso(m.at),
          succeeded: m.succeeded,
          retrying: m.retrying,
          failed: m.failed,
        })),
      };
    },
  });
}
