// An endpoint's recovery (Svix `endpoint.recover`): a window replay of what failed since `since`, under the daily
// replay quota, answered as a Svix background task.
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../runtime.ts';
import { endpointFor, type P } from './svix-context.ts';
import { answerOnce } from './svix-idempotency.ts';
import { FieldReader } from './svix-input.ts';

type EP = { Params: P<'app' | 'endpoint'> };

export function svixEndpointRecoverRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine } = rt;
  const config = { auth: 'tenant' as const };

  app.post<EP>('/api/v1/app/:app/endpoint/:endpoint/recover', { config }, (req, reply) =>
    answerOnce(rt, req, reply, async () => {
      const r = new FieldReader(req.body);
      const since = r.date('since');
      const until = r.date('until');
      if (since === undefined && !r.has('since')) r.string('since', { required: true });
      r.done();
      const { app: t, endpoint: e } = await endpointFor(rt, req, req.params.app, req.params.endpoint);
      // Recover = a window replay (docs/rules.md#replay) of what failed since `since`, under the daily quota.
      const replay = await engine.replays.window(
        t.id,
        e.id,
        { since, ...(until !== undefined ? { until } : {}) },
        req.actor,
      );
      return {
        status: 202,
        body: {
          id: replay.id,
          status: 'running',
          task: 'endpoint.recover',
          updatedAt: new Date(replay.createdAt).toISOString(),
        },
      };
    }),
  );
}
