// Circuit breakers over HTTP (docs/rules.md#breaker): read a tenant's or an endpoint's breaker, reset it by hand.
import type { FastifyInstance } from 'fastify';
import { addRoute, paramsSchema } from '../../http/route.ts';
import type { Runtime } from '../../runtime.ts';
import { BreakerSchema, breakerView } from './breaker-view.ts';

const tag = 'breakers';

export function breakerRoutes(app: FastifyInstance, rt: Runtime): void {
  const { breakers } = rt.engine;

  addRoute<{ tenant: string }>(app, {
    method: 'GET',
    url: '/v1/tenants/:tenant/breaker',
    operationId: 'getTenantBreaker',
    tag,
    auth: 'tenant',
    summary: 'The tenant-scope breaker and every endpoint-scope breaker of the tenant',
    params: paramsSchema('tenant'),
    response: {
      200: {
        type: 'object',
        required: ['breaker', 'endpoints'],
        properties: { breaker: BreakerSchema, endpoints: { type: 'array', items: BreakerSchema } },
      },
    },
    handler: async (req) => {
      const b = await breakers.ofTenant(req.params.tenant);
      return { breaker: breakerView(b.breaker), endpoints: b.endpoints.map(breakerView) };
    },
  });

  addRoute<{ tenant: string }, unknown, { state: 'closed' }>(app, {
    method: 'POST',
    url: '/v1/tenants/:tenant/breaker',
    operationId: 'setTenantBreaker',
    tag,
    auth: 'tenant',
    summary: "Set the tenant breaker's state; only `closed` (a manual reset) can be set — breakers open by themselves",
    params: paramsSchema('tenant'),
    body: {
      type: 'object',
      required: ['state'],
      additionalProperties: false,
      properties: { state: { type: 'string', enum: ['closed'] } },
    },
    response: { 200: BreakerSchema },
    handler: async (req) => breakerView(await breakers.reset({ tenantId: req.params.tenant }, req.actor)),
  });

  addRoute<{ tenant: string }>(app, {
    method: 'POST',
    url: '/v1/tenants/:tenant/breaker/reset',
    operationId: 'resetTenantBreaker',
    tag,
    auth: 'tenant',
    summary: 'Close the tenant breaker now; every held delivery becomes due at once',
    params: paramsSchema('tenant'),
    response: { 200: BreakerSchema },
    handler: async (req) => breakerView(await breakers.reset({ tenantId: req.params.tenant }, req.actor)),
  });

  addRoute<{ tenant: string; endpoint: string }>(app, {
    method: 'GET',
    url: '/v1/tenants/:tenant/endpoints/:endpoint/breaker',
    operationId: 'getEndpointBreaker',
    tag,
    auth: 'tenant',
    summary: 'The endpoint-scope breaker (policies with breaker scope "endpoint")',
    params: paramsSchema('tenant', 'endpoint'),
    response: { 200: BreakerSchema },
    handler: async (req) =>
      breakerView(await breakers.status({ tenantId: req.params.tenant, endpointId: req.params.endpoint })),
  });

  addRoute<{ tenant: string; endpoint: string }>(app, {
    method: 'POST',
    url: '/v1/tenants/:tenant/endpoints/:endpoint/breaker/reset',
    operationId: 'resetEndpointBreaker',
    tag,
    auth: 'tenant',
    summary: 'Close the endpoint breaker now; its held deliveries become due at once',
    params: paramsSchema('tenant', 'endpoint'),
    response: { 200: BreakerSchema },
    handler: async (req) =>
      breakerView(await breakers.reset({ tenantId: req.params.tenant, endpointId: req.params.endpoint }, req.actor)),
  });
}
