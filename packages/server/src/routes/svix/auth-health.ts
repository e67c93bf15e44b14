// Svix's app-portal access (a Hookline console portal link for one application) and its health probe.
import { fail } from '@hookline/core';
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../runtime.ts';
import { appFor, type P } from './svix-context.ts';
import { answerOnce } from './svix-idempotency.ts';

export function svixAuthRoutes(app: FastifyInstance, rt: Runtime): void {
  const config = { auth: 'tenant' as const };

  // `token` is the link's own single-use sign-in token (15 minutes, this application only); `url` opens the console
  // restricted to the application (docs/console.md#portal-links).
  for (const path of ['/api/v1/auth/app-portal-access/:app', '/api/v1/auth/dashboard-access/:app']) {
    app.post<{ Params: P<'app'> }>(path, { config }, (req, reply) =>
      answerOnce(rt, req, reply, async () => {
        const t = await appFor(rt, req, req.params.app);
        const link = await rt.engine.console.createPortalLink(t.id);
        reply.header('cache-control', 'no-store');
        return {
          status: 200,
          body: { url: `${req.protocol}://${req.host}/console/portal/${link.token}`, token: link.token },
        };
      }),
    );
  }

  for (const path of ['/api/v1/health', '/api/v1/health/']) {
    app.get(path, { config: { auth: 'public' as const } }, async (_req, reply) => {
      // Svix answers 204 when healthy; Hookline's readiness decides (503 storage_unavailable otherwise).
      if ((await rt.engine.maintenance.notReadyReason()) !== null) throw fail('storage_unavailable');
      return reply.code(204).send();
    });
  }
}
