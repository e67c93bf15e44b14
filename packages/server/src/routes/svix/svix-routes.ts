// The Svix-compatible API under /api/v1 (docs/svix-compatibility.md): the official Svix SDKs work against Hookline
// with `serverUrl` set to its base URL. Its routes answer Svix's error shapes; they carry no JSON Schema, so they stay
// out of Hookline's openapi.json (Svix's own document describes them).
import type { FastifyInstance } from 'fastify';
import { toHooklineError } from '../../http/error-reply.ts';
import type { Runtime } from '../../runtime.ts';
import { svixApplicationRoutes } from './applications.ts';
import { svixAttemptRoutes } from './attempts.ts';
import { svixAuthRoutes } from './auth-health.ts';
import { svixEndpointHeaderRoutes } from './endpoint-headers.ts';
import { svixEndpointRecoverRoutes } from './endpoint-recover.ts';
import { svixEndpointSecretRoutes } from './endpoint-secret.ts';
import { svixEndpointSendExampleRoutes } from './endpoint-send-example.ts';
import { svixEndpointStatsRoutes } from './endpoint-stats.ts';
import { svixEndpointRoutes } from './endpoints.ts';
import { svixEventTypeRoutes } from './event-types.ts';
import { svixMessageRoutes } from './messages.ts';
import { svixErrorBody } from './svix-errors.ts';

export async function svixRoutes(app: FastifyInstance, rt: Runtime): Promise<void> {
  await app.register(async (scope) => {
    scope.setErrorHandler(async (err, req, reply) => {
      const e = toHooklineError(err, req, rt.logger);
      const { status, body } = svixErrorBody(e);
      reply.header('x-request-id', req.id);
      if (status === 401) reply.header('www-authenticate', 'Bearer');
      if (e.retryAfterSec !== undefined) reply.header('retry-after', String(e.retryAfterSec));
      return reply.code(status).type('application/json').send(body);
    });
    svixApplicationRoutes(scope, rt);
    svixEndpointRoutes(scope, rt);
    svixEndpointSecretRoutes(scope, rt);
    svixEndpointHeaderRoutes(scope, rt);
    svixEndpointRecoverRoutes(scope, rt);
    svixEndpointStatsRoutes(scope, rt);
    svixEndpointSendExampleRoutes(scope, rt);
    svixMessageRoutes(scope, rt);
    svixAttemptRoutes(scope, rt);
    svixEventTypeRoutes(scope, rt);
    svixAuthRoutes(scope, rt);
  });
}
