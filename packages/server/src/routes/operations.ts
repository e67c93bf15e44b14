// Unauthenticated operational routes: liveness, readiness, Prometheus metrics and the OpenAPI document.
import { timingSafeEqual } from 'node:crypto';
import { fail } from '@hookline/core';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../http/route.ts';
import { named } from '../http/schema-names.ts';
import { type Runtime, sha256 } from '../runtime.ts';

const tag = 'operations';
const Status = named('ServiceStatus', {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string' }, role: { type: 'string' } },
});

const Readiness = named('Readiness', {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string' },
    role: { type: 'string' },
    settings_mismatch: {
      type: 'array',
      description:
        'Present while another live process on this database has different settings that may differ for a while (docs/scaling.md#settings-that-must-match): warned, not refused; the process is still ready',
      items: {
        type: 'object',
        required: ['setting', 'here', 'there', 'process_id', 'role'],
        properties: {
          setting: { type: 'string' },
          here: { type: 'string' },
          there: { type: 'string' },
          process_id: { type: 'string' },
          role: { type: 'string' },
        },
      },
    },
  },
});

export function operationRoutes(app: FastifyInstance, rt: Runtime, openapi: () => Record<string, unknown>): void {
  let lastReason: string | null = null;
  // Compared as sha256 digests in constant time, like the admin token.
  const metricsTokenHash = rt.config.metricsToken === null ? null : sha256(rt.config.metricsToken);
  addRoute(app, {
    method: 'GET',
    url: '/healthz',
    operationId: 'healthz',
    tag,
    auth: 'public',
    summary:
      'Liveness: the process answers and its store has not failed for good (a failed fsync, a dead store thread: 503 storage_unavailable, and the process exits)',
    response: { 200: Status },
    handler: async () => {
      if (rt.fatal) throw fail('storage_unavailable');
      return { status: 'ok', role: rt.config.role };
    },
  });

  addRoute(app, {
    method: 'GET',
    url: '/readyz',
    operationId: 'readyz',
    tag,
    auth: 'public',
    summary:
      'Readiness: the store answers and can take writes (503 storage_unavailable while the disk is full, writes or checkpoints fail, or after a fatal store failure); settings_mismatch lists settings another live process has different',
    response: { 200: Readiness },
    handler: async (req) => {
      const reason = await rt.engine.maintenance.notReadyReason();
      if (reason !== null) {
        // Logged once per change of reason, not on every probe.
        if (reason !== lastReason) rt.logger.log('warn', 'not ready', { request_id: req.id, reason });
        lastReason = reason;
        throw fail('storage_unavailable');
      }
      if (lastReason !== null) rt.logger.log('info', 'ready again', { request_id: req.id, was: lastReason });
      lastReason = null;
      const mismatches = await rt.settings.refresh();
      if (mismatches.length === 0) return { status: 'ready', role: rt.config.role };
      return {
        status: 'ready',
        role: rt.config.role,
        settings_mismatch: mismatches.map((m) => ({
          setting: m.setting,
          here: m.here,
          there: m.there,
          process_id: m.processId,
          role: m.role,
        })),
      };
    },
  });

  addRoute(app, {
    method: 'GET',
    url: '/metrics',
    operationId: 'metrics',
    tag,
    auth: 'public',
    summary:
      'Prometheus metrics: hookline_attempts_total, hookline_attempt_duration_seconds, hookline_delivery_latency_seconds (accept → successful attempt), hookline_queue_depth, hookline_breaker_open',
    response: { 200: { type: 'string', description: 'Prometheus text exposition format 0.0.4' } },
    handler: async (req, reply) => {
      if (metricsTokenHash !== null) {
        const header = req.headers.authorization;
        const presented = sha256(typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : '');
        if (!timingSafeEqual(presented, metricsTokenHash)) throw fail('unauthorized');
      }
      // The settings gauge reads the other processes' rows (at most once a second), like /readyz.
      await rt.settings.refresh();
      return reply.type('text/plain; version=0.0.4; charset=utf-8').send(await rt.metrics.render());
    },
  });

  addRoute(app, {
    method: 'GET',
    url: '/openapi.json',
    operationId: 'openapi',
    summary: "This API's OpenAPI 3.1 document",
    tag,
    auth: 'public',
    response: { 200: { type: 'object', additionalProperties: true, description: 'OpenAPI 3.1 document' } },
    handler: async () => openapi(),
  });
}
