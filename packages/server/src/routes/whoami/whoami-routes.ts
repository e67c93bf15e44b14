// GET /v1/whoami: which credentials the request carries, so a client holding a tenant API key learns its tenant.
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../http/route.ts';
import { WhoamiSchema, whoamiView } from './whoami-view.ts';

export function whoamiRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/v1/whoami',
    operationId: 'whoami',
    summary: 'Who the credentials are: the admin, or a tenant API key with its tenant and environment',
    tag: 'auth',
    // `tenant` with no :tenant in the path admits any authenticated caller, admin or key.
    auth: 'tenant',
    response: { 200: WhoamiSchema },
    handler: async (req) => whoamiView(req.principal!),
  });
}
