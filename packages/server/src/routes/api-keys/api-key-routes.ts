// Tenant API keys: `hk_test_…` or `hk_live_…` by the tenant's environment, shown once at creation, stored as sha256, revocable.
import type { FastifyInstance } from 'fastify';
import { generateApiKey } from '../../http/auth.ts';
import { addRoute, paramsSchema } from '../../http/route.ts';
import type { Runtime } from '../../runtime.ts';
import { ApiKeySchema, apiKeyView } from './api-key-view.ts';

const tag = 'api-keys';

export function apiKeyRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine } = rt;

  addRoute<{ tenant: string }, unknown, { name?: string }>(app, {
    method: 'POST',
    url: '/v1/tenants/:tenant/api-keys',
    operationId: 'createApiKey',
    summary: 'Create an API key (the key is shown only in this response)',
    tag,
    auth: 'tenant',
    params: paramsSchema('tenant'),
    body: { type: 'object', additionalProperties: false, properties: { name: { type: 'string', maxLength: 200 } } },
    response: {
      201: {
        ...ApiKeySchema,
        required: [...(ApiKeySchema.required as string[]), 'key'],
        properties: {
          ...(ApiKeySchema.properties as object),
          key: { type: 'string', description: 'The secret key; store it now, it is never shown again.' },
        },
      },
    },
    handler: async (req, reply) => {
      const { key, hash, prefix } = generateApiKey(await rt.authLookups.environmentOf(req.params.tenant));
      const record = await engine.apiKeys.create(req.params.tenant, { name: req.body?.name, hash, prefix }, req.actor);
      return reply.code(201).send({ ...apiKeyView(record), key });
    },
  });

  addRoute<{ tenant: string }>(app, {
    method: 'GET',
    url: '/v1/tenants/:tenant/api-keys',
    operationId: 'listApiKeys',
    summary: 'List API keys (never the keys themselves)',
    tag,
    auth: 'tenant',
    params: paramsSchema('tenant'),
    response: {
      200: { type: 'object', required: ['items'], properties: { items: { type: 'array', items: ApiKeySchema } } },
    },
    handler: async (req) => ({ items: (await engine.apiKeys.list(req.params.tenant)).map(apiKeyView) }),
  });

  addRoute<{ tenant: string; key: string }>(app, {
    method: 'DELETE',
    url: '/v1/tenants/:tenant/api-keys/:key',
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    tag,
    auth: 'tenant',
    params: paramsSchema('tenant', 'key'),
    response: { 204: { type: 'null', description: 'Revoked' } },
    handler: async (req, reply) => {
      // The key stops working in this process at once: the runtime's auth cache listens to the revocation.
      await engine.apiKeys.revoke(req.params.tenant, req.params.key, req.actor);
      return reply.code(204).send();
    },
  });
}
