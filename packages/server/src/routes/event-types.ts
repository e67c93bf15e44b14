// The event-type registry over HTTP: versioned JSON Schemas, examples and money rules; events are checked against them.
import { EVENT_TYPE_NAME, fail } from '@hookline/core';
import type { FastifyInstance } from 'fastify';
import type { EventTypeDefinition, EventTypeView } from '../event-types/event-type-registry.ts';
import { addRoute } from '../http/route.ts';
import { named } from '../http/schema-names.ts';
import { iso } from '../http/views.ts';
import type { Runtime } from '../runtime.ts';

const tag = 'event-types';
const TYPE_PARAM = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string', pattern: EVENT_TYPE_NAME.pattern, maxLength: EVENT_TYPE_NAME.maxLength } },
};

const MoneySchema = {
  description:
    'true/false: every event of the type is (not) money; {field, in}: money when data.<field> is one of in. Overrides the configured money rules.',
  anyOf: [
    { type: 'boolean' },
    {
      type: 'object',
      additionalProperties: false,
      properties: {
        field: { type: 'string', pattern: '^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$' },
        in: { type: 'array', minItems: 1, items: { type: 'string' } },
      },
    },
  ],
};

const VersionsSchema = {
  type: 'object',
  minProperties: 1,
  description: 'By version ("1", "2", …): a JSON Schema for data and an example that must match it.',
  propertyNames: { pattern: '^[A-Za-z0-9_.-]{1,32}$' },
  additionalProperties: {
    type: 'object',
    required: ['schema'],
    additionalProperties: false,
    properties: { schema: { type: ['object', 'boolean'] }, example: {} },
  },
};

const EventTypeSchema = named('EventType', {
  type: 'object',
  required: ['name', 'description', 'versions', 'money', 'updated_at'],
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    versions: { type: 'object', additionalProperties: true },
    money: {},
    updated_at: { type: 'string', format: 'date-time' },
  },
});

const view = (t: EventTypeView) => ({
  name: t.name,
  description: t.description,
  versions: t.versions,
  money: t.money ?? null,
  updated_at: iso(t.updatedAt),
});

export function eventTypeRoutes(app: FastifyInstance, rt: Runtime): void {
  addRoute<{ type: string }, unknown, EventTypeDefinition>(app, {
    method: 'PUT',
    url: '/v1/event-types/:type',
    operationId: 'putEventType',
    tag,
    auth: 'admin',
    summary: 'Define or replace an event type',
    params: TYPE_PARAM,
    body: {
      type: 'object',
      required: ['versions'],
      additionalProperties: false,
      properties: {
        description: { type: 'string', maxLength: 2000, default: '' },
        versions: VersionsSchema,
        money: MoneySchema,
      },
    },
    response: { 200: EventTypeSchema },
    handler: async (req) => view(await rt.eventTypes.put(req.params.type, req.body, rt.clock.now(), req.actor)),
  });

  addRoute<{ type: string }>(app, {
    method: 'GET',
    url: '/v1/event-types/:type',
    operationId: 'getEventType',
    summary: 'Get an event type',
    tag,
    auth: 'tenant',
    params: TYPE_PARAM,
    response: { 200: EventTypeSchema },
    handler: async (req) => {
      const t = await rt.eventTypes.get(req.params.type);
      if (!t) throw fail('event_type_not_found');
      return view(t);
    },
  });

  addRoute(app, {
    method: 'GET',
    url: '/v1/event-types',
    operationId: 'listEventTypes',
    summary: 'List event types',
    tag,
    auth: 'tenant',
    response: {
      200: { type: 'object', required: ['items'], properties: { items: { type: 'array', items: EventTypeSchema } } },
    },
    handler: async () => ({ items: (await rt.eventTypes.list()).map(view) }),
  });
}
