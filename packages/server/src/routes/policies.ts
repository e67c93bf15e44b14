// Policies: the ones an endpoint can name, and a policy's preview: the attempt timeline against scripted answers,
// computed by the engine on a virtual clock (engine.simulations; what `hookline simulate --responses` prints).

import { EVENT_TYPE_NAME, OUTCOME_CLASSES, SIMULATION_MAX_RESPONSES } from '@hookline/core';
import { SIM_NEXT_STATUSES } from '@hookline/core/simulation';

import type { FastifyInstance } from 'fastify';
import { addRoute } from '../http/route.ts';
import { named } from '../http/schema-names.ts';
import type { Runtime } from '../runtime.ts';

const tag = 'policies';
const ms = { type: 'integer', minimum: 0 };

const PolicySchema = named('Policy', {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'preset', 'timeout_ms', 'max_concurrency', 'description'],
  properties: {
    name: { type: 'string' },
    preset: {
      type: 'boolean',
      description: 'A built-in policy (payments, standard, brief, strict); false: defined in config.',
    },
    timeout_ms: ms,
    max_concurrency: { type: 'integer', minimum: 1 },
    description: {
      type: 'string',
      description: 'Its ladders, client-error rule, timeout, cap, age limit and breaker in one line.',
    },
  },
});

const SimulationSchema = named('Simulation', {
  type: 'object',
  additionalProperties: false,
  required: ['policy', 'seed', 'type', 'is_money', 'attempts', 'held', 'transitions', 'final'],
  properties: {
    policy: { type: 'string' },
    seed: { type: 'integer' },
    type: { type: 'string' },
    is_money: { type: 'boolean' },
    attempts: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['n', 'at_ms', 'duration_ms', 'ladder', 'response', 'outcome', 'next'],
        properties: {
          n: { type: 'integer' },
          at_ms: { ...ms, description: 'Start, ms after the event was accepted.' },
          duration_ms: ms,
          ladder: { type: 'string', description: 'The ladder that scheduled this attempt (fast, slow, …).' },
          response: { type: 'string', description: 'The scripted answer: a status, timeout or reset.' },
          outcome: { type: 'string', enum: [...OUTCOME_CLASSES] },
          next: {
            type: 'object',
            additionalProperties: false,
            required: ['status'],
            properties: {
              status: { type: 'string', enum: [...SIM_NEXT_STATUSES] },
              at_ms: { ...ms, description: 'pending: when the next attempt is due.' },
              ladder: { type: 'string', description: 'pending: the ladder of the next attempt.' },
              reason: { type: 'string', description: 'failed: why the delivery ended.' },
            },
          },
        },
      },
    },
    held: {
      type: 'array',
      description: 'A due attempt put back because the breaker was open (no attempt spent).',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['at_ms', 'until_ms'],
        properties: { at_ms: ms, until_ms: ms },
      },
    },
    transitions: {
      type: 'array',
      description: 'Breaker and endpoint-health changes.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['at_ms', 'kind', 'scope', 'from', 'to'],
        properties: {
          at_ms: ms,
          kind: { type: 'string', enum: ['breaker', 'health'] },
          scope: { type: 'string' },
          from: { type: 'string' },
          to: { type: 'string' },
          reason: { type: 'string' },
        },
      },
    },
    final: {
      type: 'object',
      additionalProperties: false,
      required: ['status', 'reason', 'at_ms'],
      properties: { status: { type: 'string' }, reason: { type: ['string', 'null'] }, at_ms: ms },
    },
  },
});

interface SimulateBody {
  policy: string;
  responses: Array<string | number>;
  type?: string;
  data?: unknown;
  seed?: number;
}

export function policyRoutes(app: FastifyInstance, rt: Runtime): void {
  addRoute(app, {
    method: 'GET',
    url: '/v1/policies',
    operationId: 'listPolicies',
    tag,
    auth: 'tenant',
    summary: 'The retry policies an endpoint can name: the presets, then those defined in config',
    response: {
      200: {
        type: 'object',
        required: ['items'],
        additionalProperties: false,
        properties: { items: { type: 'array', items: PolicySchema } },
      },
    },
    handler: async () => ({
      items: rt.engine.simulations.policies().map((p) => ({
        name: p.name,
        preset: p.preset,
        timeout_ms: p.timeoutMs,
        max_concurrency: p.maxConcurrency,
        description: p.description,
      })),
    }),
  });

  addRoute<Record<string, string>, unknown, SimulateBody>(app, {
    method: 'POST',
    url: '/v1/simulate',
    operationId: 'simulatePolicy',
    tag,
    auth: 'tenant',
    summary: 'Preview a policy: the attempt timeline against scripted receiver answers, on a virtual clock',
    description:
      'The real engine (dispatcher, policy, breaker) runs one event in a throwaway store on a virtual clock, as `hookline simulate --responses` does; nothing is sent and no tenant data is read or written. The last answer repeats. The same seed gives the same jitter.',
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['policy', 'responses'],
      properties: {
        policy: { type: 'string', minLength: 1, maxLength: 64 },
        responses: {
          type: 'array',
          minItems: 1,
          maxItems: SIMULATION_MAX_RESPONSES,
          items: {
            anyOf: [
              { type: 'integer', minimum: 100, maximum: 599 },
              { type: 'string', minLength: 1, maxLength: 16 },
            ],
          },
          description:
            'Per request: an HTTP status (100-599), "timeout" or "reset"; the last one repeats, e.g. [500, 500, 200].',
        },
        type: {
          type: 'string',
          minLength: 1,
          maxLength: EVENT_TYPE_NAME.maxLength,
          pattern: EVENT_TYPE_NAME.pattern,
          description: 'Event type (default simulate.test); decides money events for payments.',
        },
        data: { description: 'Event data (default {}).' },
        seed: { type: 'integer', minimum: 0, maximum: 4_294_967_295, description: 'Jitter seed (default 1).' },
      },
    },
    bodyLimit: 64 * 1024,
    response: { 200: SimulationSchema },
    handler: async (req) => {
      const b = req.body;
      const r = await rt.engine.simulations.preview({
        policy: b.policy,
        responses: b.responses,
        ...(b.type ? { type: b.type } : {}),
        ...(b.data !== undefined ? { data: b.data } : {}),
        ...(b.seed !== undefined ? { seed: b.seed } : {}),
      });
      return {
        policy: r.policy,
        seed: r.seed,
        type: r.type,
        is_money: r.isMoney,
        attempts: r.attempts.map((a) => ({
          n: a.n,
          at_ms: a.atMs,
          duration_ms: a.durationMs,
          ladder: a.ladder,
          response: a.response,
          outcome: a.outcome,
          next:
            a.next.status === 'pending'
              ? { status: 'pending', at_ms: a.next.atMs, ladder: a.next.ladder }
              : a.next.status === 'failed'
                ? { status: 'failed', reason: a.next.reason }
                : { status: 'succeeded' },
        })),
        held: r.held.map((h) => ({ at_ms: h.atMs, until_ms: h.untilMs })),
        transitions: r.transitions.map((t) => ({
          at_ms: t.atMs,
          kind: t.kind,
          scope: t.scope,
          from: t.from,
          to: t.to,
          ...(t.reason ? { reason: t.reason } : {}),
        })),
        final: { status: r.final.status, reason: r.final.reason, at_ms: r.final.atMs },
      };
    },
  });
}
