// Tenants: the provider's customers; created and deleted by the admin, read and edited by their own keys.
import { ENVIRONMENTS, type Environment, fail, type TenantLimitsPatch } from '@hookline/core';
import type { FastifyInstance } from 'fastify';
import { parseCursor } from '../../http/query.ts';
import { addRoute, pagingQuery, paramsSchema } from '../../http/route.ts';
import { pageSchema } from '../../http/views.ts';
import type { Runtime } from '../../runtime.ts';
import { TenantLimitsPatchSchema, TenantUsageSchema, tenantUsageView } from './tenant-limits-view.ts';
import { TenantSchema, tenantView } from './tenant-view.ts';

const tag = 'tenants';
const emails = { type: 'array', maxItems: 20, items: { type: 'string', format: 'email', maxLength: 320 } };
const environment = { type: 'string', enum: [...ENVIRONMENTS] };

interface TenantBody {
  name?: string;
  environment?: Environment;
  owner_emails?: string[];
  notify_email?: boolean;
  operations_endpoint_id?: string | null;
  limits?: TenantLimitsPatch;
}

export function tenantRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine } = rt;

  addRoute<Record<string, never>, unknown, TenantBody>(app, {
    method: 'POST',
    url: '/v1/tenants',
    operationId: 'createTenant',
    summary: 'Create a tenant',
    tag,
    auth: 'admin',
    body: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 200 },
        environment: {
          ...environment,
          description:
            'test or live (default live; docs/rules.md#environments); fixed at creation. Its API keys are hk_test_… or hk_live_….',
        },
        owner_emails: emails,
        notify_email: { type: 'boolean' },
      },
    },
    response: { 201: TenantSchema },
    handler: async (req, reply) => {
      const { name, environment, owner_emails, notify_email } = req.body;
      const tenant = await engine.tenants.create({ name: name!, environment, owner_emails, notify_email }, req.actor);
      return reply.code(201).send(tenantView(tenant));
    },
  });

  addRoute<Record<string, never>, { limit: number; cursor?: string; environment?: Environment }>(app, {
    method: 'GET',
    url: '/v1/tenants',
    operationId: 'listTenants',
    summary: 'List tenants (oldest first)',
    tag,
    auth: 'admin',
    querystring: {
      type: 'object',
      additionalProperties: false,
      properties: {
        environment: { ...environment, description: 'Only the tenants of this environment.' },
        ...pagingQuery,
      },
    },
    response: { 200: pageSchema(TenantSchema) },
    handler: async (req) => {
      const page = await engine.tenants.list(
        parseCursor(req.query.cursor),
        req.query.limit,
        req.query.environment ? { environment: req.query.environment } : {},
      );
      return { items: page.items.map(tenantView), next_cursor: page.nextCursor };
    },
  });

  addRoute<{ tenant: string }>(app, {
    method: 'GET',
    url: '/v1/tenants/:tenant',
    operationId: 'getTenant',
    summary: 'Get a tenant',
    tag,
    auth: 'tenant',
    params: paramsSchema('tenant'),
    response: { 200: TenantSchema },
    handler: async (req) => tenantView(await engine.tenants.get(req.params.tenant)),
  });

  addRoute<{ tenant: string }, unknown, TenantBody>(app, {
    method: 'PATCH',
    url: '/v1/tenants/:tenant',
    operationId: 'updateTenant',
    summary: 'Edit a tenant',
    tag,
    auth: 'tenant',
    params: paramsSchema('tenant'),
    body: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 200 },
        environment: {
          ...environment,
          description:
            "Fixed at creation: accepted only when it is the tenant's own (409 environment_immutable otherwise).",
        },
        owner_emails: emails,
        notify_email: { type: 'boolean' },
        operations_endpoint_id: {
          type: ['string', 'null'],
          description: 'An endpoint of this tenant that receives operational events (endpoint.degraded, …).',
        },
        limits: TenantLimitsPatchSchema,
      },
    },
    response: { 200: TenantSchema },
    handler: async (req) => {
      // A tenant never sets its own limits (docs/rules.md#tenant-limits): only the admin does.
      if (req.body.limits !== undefined && req.principal?.kind !== 'admin') throw fail('forbidden');
      return tenantView(await engine.tenants.update(req.params.tenant, req.body, req.actor));
    },
  });

  addRoute<{ tenant: string }>(app, {
    method: 'GET',
    url: '/v1/tenants/:tenant/usage',
    operationId: 'getTenantUsage',
    summary: "The tenant's events today (UTC), recent rate and endpoints against its limits",
    tag,
    auth: 'tenant',
    params: paramsSchema('tenant'),
    response: { 200: TenantUsageSchema },
    handler: async (req) => tenantUsageView(await engine.tenants.usage(req.params.tenant)),
  });

  addRoute<{ tenant: string }>(app, {
    method: 'DELETE',
    url: '/v1/tenants/:tenant',
    operationId: 'deleteTenant',
    summary: 'Delete a tenant and everything it owns',
    tag,
    auth: 'admin',
    params: paramsSchema('tenant'),
    response: { 204: { type: 'null', description: 'Deleted' } },
    handler: async (req, reply) => {
      // Its keys stop working in this process at once: the runtime's auth cache listens to the revocation.
      await engine.tenants.delete(req.params.tenant, req.actor);
      return reply.code(204).send();
    },
  });
}
