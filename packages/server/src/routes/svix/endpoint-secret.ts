// An endpoint's signing secret (Svix `endpoint.getSecret`, `rotateSecret`): the current whsec_ key, and a rotation
// that keeps the previous one valid for the overlap.
import { fail } from '@hookline/core';
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../runtime.ts';
import { endpointFor, type P } from './svix-context.ts';
import { answerOnce } from './svix-idempotency.ts';
import { FieldReader } from './svix-input.ts';

type EP = { Params: P<'app' | 'endpoint'> };

export function svixEndpointSecretRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine } = rt;
  const config = { auth: 'tenant' as const };

  app.get<EP>('/api/v1/app/:app/endpoint/:endpoint/secret', { config }, async (req) => {
    const { app: t, endpoint: e } = await endpointFor(rt, req, req.params.app, req.params.endpoint);
    const [current] = await engine.endpointSecrets.list(t.id, e.id);
    if (!current?.secret) throw fail('endpoint_not_found');
    return { key: current.secret };
  });

  app.post<EP>('/api/v1/app/:app/endpoint/:endpoint/secret/rotate', { config }, (req, reply) =>
    answerOnce(rt, req, reply, async () => {
      const r = new FieldReader(req.body);
      const key = r.nullableString('key', { max: 200 });
      r.done();
      const { app: t, endpoint: e } = await endpointFor(rt, req, req.params.app, req.params.endpoint);
      // Svix keeps the previous secret valid for 24 h: Hookline's rotation overlap (docs/rules.md#secret-rotation).
      await engine.endpointSecrets.rotate(t.id, e.id, undefined, req.actor, key ?? undefined);
      return { status: 204, body: undefined };
    }),
  );
}
