// Endpoints: create, list, read, edit (URL, subscriptions, policy, scheme, status) and delete.
import type { EndpointEdit, EndpointInput } from '@hookline/core';
import type { FastifyInstance } from 'fastify';
import { parseCursor } from '../../http/query.ts';
import { addRoute, pagingQuery, paramsSchema } from '../../http/route.ts';
import { pageSchema } from '../../http/views.ts';
import type { Runtime } from '../../runtime.ts';
import { ReplayAcceptedSchema, replayView } from '../replays/replay-view.ts';
import { catchUpField, endpointFields } from './endpoint-schemas.ts';
import { EndpointSchema, endpointView } from './endpoint-view.ts';

const tag = 'endpoints';

export function endpointCrudRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine } = rt;

  addRoute<{ tenant: string }, unknown, EndpointInput>(app, {
    method: 'POST',
    url: '/v1/tenants/:tenant/endpoints',
    operationId: 'createEndpoint',
    summary:
      'Create an endpoint (its first signing secret, or ed25519 public key, is returned here and by GET …/secret)',
    tag,
    auth: 'tenant',
    params: paramsSchema('tenant'),
    body: { type: 'object', required: ['url'], additionalProperties: false, properties: endpointFields },
    response: {
      201: {
        ...EndpointSchema,
        required: [...(EndpointSchema.required as string[]), 'secret', 'public_key'],
        properties: {
          ...(EndpointSchema.properties as object),
          secret: {
            type: ['string', 'null'],
            description: 'The HMAC signing secret (`whsec_…`); null with signing ed25519.',
          },
          public_key: {
            type: ['string', 'null'],
            description:
              'With signing ed25519: the public key (`whpk_…`) receivers verify v1a with; its secret key is never shown. Null otherwise.',
          },
        },
      },
    },
    handler: async (req, reply) => {
      const { endpoint, secret, publicKey } = await engine.endpoints.create(req.params.tenant, req.body, req.actor);
      return reply.code(201).send({ ...endpointView(endpoint), secret, public_key: publicKey });
    },
  });

  addRoute<{ tenant: string }, { limit: number; cursor?: string }>(app, {
    method: 'GET',
    url: '/v1/tenants/:tenant/endpoints',
    operationId: 'listEndpoints',
    summary: 'List endpoints',
    tag,
    auth: 'tenant',
    params: paramsSchema('tenant'),
    querystring: { type: 'object', additionalProperties: false, properties: pagingQuery },
    response: { 200: pageSchema(EndpointSchema) },
    handler: async (req) => {
      const page = await engine.endpoints.list(req.params.tenant, parseCursor(req.query.cursor), req.query.limit);
      return { items: page.items.map(endpointView), next_cursor: page.nextCursor };
    },
  });

  addRoute<{ tenant: string; endpoint: string }>(app, {
    method: 'GET',
    url: '/v1/tenants/:tenant/endpoints/:endpoint',
    operationId: 'getEndpoint',
    summary: 'Get an endpoint',
    tag,
    auth: 'tenant',
    params: paramsSchema('tenant', 'endpoint'),
    response: { 200: EndpointSchema },
    handler: async (req) => endpointView(await engine.endpoints.get(req.params.tenant, req.params.endpoint)),
  });

  addRoute<{ tenant: string; endpoint: string }, unknown, EndpointEdit>(app, {
    method: 'PATCH',
    url: '/v1/tenants/:tenant/endpoints/:endpoint',
    operationId: 'updateEndpoint',
    summary:
      'Edit an endpoint; a URL change or status=active clears degradation; status=active with catch_up replays what the pause missed',
    tag,
    auth: 'tenant',
    params: paramsSchema('tenant', 'endpoint'),
    body: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: { ...endpointFields, ...catchUpField },
    },
    response: {
      200: {
        ...EndpointSchema,
        properties: {
          ...(EndpointSchema.properties as object),
          catch_up: { ...ReplayAcceptedSchema, description: 'Only with catch_up: the replay it started.' },
        },
      },
    },
    handler: async (req) => {
      if (req.body.catch_up !== true)
        return endpointView(await engine.endpoints.update(req.params.tenant, req.params.endpoint, req.body, req.actor));
      const { endpoint, replay } = await engine.endpoints.reactivate(
        req.params.tenant,
        req.params.endpoint,
        req.body,
        req.actor,
      );
      return { ...endpointView(endpoint), catch_up: { replay_id: replay.id, replay: replayView(replay) } };
    },
  });

  addRoute<{ tenant: string; endpoint: string }>(app, {
    method: 'DELETE',
    url: '/v1/tenants/:tenant/endpoints/:endpoint',
    operationId: 'deleteEndpoint',
    summary: 'Delete an endpoint and its deliveries',
    tag,
    auth: 'tenant',
    params: paramsSchema('tenant', 'endpoint'),
    response: { 204: { type: 'null', description: 'Deleted' } },
    handler: async (req, reply) => {
      await engine.endpoints.delete(req.params.tenant, req.params.endpoint, req.actor);
      return reply.code(204).send();
    },
  });
}
