// One test delivery to an endpoint now (event type hookline.test); answers with the attempt.
import type { FastifyInstance } from 'fastify';
import { addRoute, paramsSchema } from '../../http/route.ts';
import type { Runtime } from '../../runtime.ts';
import { AttemptSchema, attemptView } from '../deliveries/attempt-view.ts';

export function endpointTestRoutes(app: FastifyInstance, rt: Runtime): void {
  addRoute<{ tenant: string; endpoint: string }>(app, {
    method: 'POST',
    url: '/v1/tenants/:tenant/endpoints/:endpoint/test',
    operationId: 'testEndpoint',
    summary: 'Send one test delivery now; success clears degradation',
    tag: 'endpoints',
    auth: 'tenant',
    params: paramsSchema('tenant', 'endpoint'),
    response: { 200: AttemptSchema },
    handler: async (req) =>
      attemptView(await rt.engine.endpoints.test(req.params.tenant, req.params.endpoint, req.actor)),
  });
}
