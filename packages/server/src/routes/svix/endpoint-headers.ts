// An endpoint's custom headers (Svix `endpoint.getHeaders`, `updateHeaders`, `patchHeaders`): read, replace the
// whole set, or patch it (null or `deleteHeaders` removes one).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Runtime } from '../../runtime.ts';
import { endpointFor, type P } from './svix-context.ts';
import { FieldReader } from './svix-input.ts';

type EP = { Params: P<'app' | 'endpoint'> };

export function svixEndpointHeaderRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine } = rt;
  const config = { auth: 'tenant' as const };

  app.get<EP>('/api/v1/app/:app/endpoint/:endpoint/headers', { config }, async (req) => {
    const { endpoint: e } = await endpointFor(rt, req, req.params.app, req.params.endpoint);
    return { headers: e.customHeaders ?? {}, sensitive: [] };
  });

  const editHeaders = (replace: boolean) => async (req: FastifyRequest<EP>, reply: FastifyReply) => {
    const r = new FieldReader(req.body);
    const raw = r.raw('headers');
    const headers: Record<string, string | null> = {};
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) r.stringMap('headers');
    else
      for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
        if (typeof v === 'string' || (v === null && !replace)) headers[k] = v;
        else r.stringMap('headers');
      }
    const drop = r.strings('deleteHeaders') ?? [];
    r.done();
    const { app: t, endpoint: e } = await endpointFor(rt, req, req.params.app, req.params.endpoint);
    const next: Record<string, string> = replace ? {} : { ...(e.customHeaders ?? {}) };
    for (const [k, v] of Object.entries(headers)) {
      if (v === null) delete next[k];
      else next[k] = v;
    }
    for (const k of drop) delete next[k];
    await engine.endpoints.update(t.id, e.id, { headers: next }, req.actor);
    return reply.code(204).send();
  };
  app.put<EP>('/api/v1/app/:app/endpoint/:endpoint/headers', { config }, editHeaders(true));
  app.patch<EP>('/api/v1/app/:app/endpoint/:endpoint/headers', { config }, editHeaders(false));
}
