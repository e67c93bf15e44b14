// An endpoint's delivery counts (Svix `endpoint.getStats`) since a time (default: its creation), from the engine's
// per-endpoint stats.
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../runtime.ts';
import { endpointFor, type P } from './svix-context.ts';
import { FieldReader } from './svix-input.ts';

type EP = { Params: P<'app' | 'endpoint'> };

export function svixEndpointStatsRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine } = rt;
  const config = { auth: 'tenant' as const };

  app.get<EP>('/api/v1/app/:app/endpoint/:endpoint/stats', { config }, async (req) => {
    const { app: t, endpoint: e } = await endpointFor(rt, req, req.params.app, req.params.endpoint);
    const q = new FieldReader(req.query, 'query');
    const since = q.date('since');
    q.done();
    const stats = await engine.stats.tenant(t.id, { since: since ?? e.createdAt });
    const s = stats.endpoints.find((x) => x.endpointId === e.id);
    return {
      success: s?.succeeded ?? 0,
      fail: s?.failed ?? 0,
      pending: (s?.queued.pending ?? 0) + (s?.queued.held ?? 0),
      sending: s?.queued.delivering ?? 0,
      canceled: 0,
    };
  });
}
