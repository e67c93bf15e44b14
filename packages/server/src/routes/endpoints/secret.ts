// An endpoint's signing secrets: read the live ones, rotate with an overlap (docs/rules.md#secret-rotation).
import type { FastifyInstance } from 'fastify';
import { addRoute, paramsSchema } from '../../http/route.ts';
import type { Runtime } from '../../runtime.ts';
import { SecretsSchema, secretsView } from './secret-view.ts';

const tag = 'endpoints';

export function endpointSecretRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine } = rt;

  addRoute<{ tenant: string; endpoint: string }>(app, {
    method: 'GET',
    url: '/v1/tenants/:tenant/endpoints/:endpoint/secret',
    operationId: 'getEndpointSecret',
    summary: 'The current signing secret and every live one',
    tag,
    auth: 'tenant',
    params: paramsSchema('tenant', 'endpoint'),
    response: { 200: SecretsSchema },
    handler: async (req) => secretsView(await engine.endpointSecrets.list(req.params.tenant, req.params.endpoint)),
  });

  addRoute<{ tenant: string; endpoint: string }, unknown, { overlap_seconds?: number } | undefined>(app, {
    method: 'POST',
    url: '/v1/tenants/:tenant/endpoints/:endpoint/secret/rotate',
    operationId: 'rotateEndpointSecret',
    summary: 'Rotate the signing secret; the old ones keep signing until the overlap ends (default from config, 24 h)',
    tag,
    auth: 'tenant',
    params: paramsSchema('tenant', 'endpoint'),
    body: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: { overlap_seconds: { type: 'integer', minimum: 0, maximum: 30 * 86_400 } },
    },
    response: { 200: SecretsSchema },
    handler: async (req) => {
      const overlap = req.body?.overlap_seconds;
      return secretsView(
        await engine.endpointSecrets.rotate(
          req.params.tenant,
          req.params.endpoint,
          overlap === undefined ? undefined : overlap * 1000,
          req.actor,
        ),
      );
    },
  });
}
