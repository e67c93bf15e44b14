// Svix endpoints = Hookline endpoints (standard scheme): list, create, get, update, patch, delete by id or uid.
import { type Endpoint, type EndpointLabels, SVIX_EVENT_TYPE_NAME } from '@hookline/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Runtime } from '../../runtime.ts';
import { appFor, endpointFor, type P, paging } from './svix-context.ts';
import { answerOnce } from './svix-idempotency.ts';
import { CHANNEL_PATTERN, FieldReader, UID_PATTERN } from './svix-input.ts';
import { endpointOut, listOut } from './svix-view.ts';

interface EndpointFields {
  url?: string;
  description?: string;
  filterTypes?: string[] | null;
  channels?: string[] | null;
  disabled?: boolean;
  rateLimit?: number | null;
  uid?: string | null;
  metadata?: Record<string, string> | null;
  secret?: string | null;
}

function readEndpoint(body: unknown, requireUrl: boolean): EndpointFields {
  const r = new FieldReader(body);
  // Svix renamed filterTypes to eventTypes in newer documents; either is read.
  const filterTypes = r.has('filterTypes')
    ? r.strings('filterTypes', { max: 1000, pattern: SVIX_EVENT_TYPE_NAME })
    : r.strings('eventTypes', { max: 1000, pattern: SVIX_EVENT_TYPE_NAME });
  const out: EndpointFields = {
    url: r.string('url', { required: requireUrl, max: 2048 }),
    description: r.string('description', { max: 1000 }),
    filterTypes,
    channels: r.strings('channels', { max: 10, pattern: CHANNEL_PATTERN }),
    disabled: r.boolean('disabled'),
    rateLimit: r.integer('rateLimit', { min: 1, max: 10_000 }),
    uid: r.nullableString('uid', { pattern: UID_PATTERN }),
    metadata: r.stringMap('metadata'),
    secret: r.nullableString('secret', { max: 200 }),
  };
  r.done();
  return out;
}

function labelsOf(e: Endpoint, f: EndpointFields, replace: boolean): EndpointLabels {
  const keep = <T>(given: T | undefined, cur: T, reset: T): T => (given !== undefined ? given : replace ? reset : cur);
  return {
    uid: keep(f.uid, e.uid ?? null, null),
    metadata: keep(f.metadata, e.metadata ?? {}, {}) ?? {},
    channels: keep(f.channels, e.channels ?? null, null),
  };
}

export function svixEndpointRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine } = rt;
  const config = { auth: 'tenant' as const };

  app.get<{ Params: P<'app'> }>('/api/v1/app/:app/endpoint', { config }, async (req) => {
    const t = await appFor(rt, req, req.params.app);
    const { limit, cursor } = paging(req.query as Record<string, unknown>);
    const page = await engine.endpoints.list(t.id, cursor, limit);
    return listOut(page.items.map(endpointOut), page.nextCursor);
  });

  app.post<{ Params: P<'app'> }>('/api/v1/app/:app/endpoint', { config }, (req, reply) =>
    answerOnce(rt, req, reply, async () => {
      const f = readEndpoint(req.body, true);
      const t = await appFor(rt, req, req.params.app);
      const { endpoint } = await engine.endpoints.create(
        t.id,
        {
          url: f.url!,
          description: f.description ?? '',
          event_types: f.filterTypes ?? [],
          // Standard Webhooks headers and signatures: what the svix and standardwebhooks libraries verify.
          scheme: 'standard',
          ...(f.disabled ? { status: 'paused' as const } : {}),
          ...(f.rateLimit != null ? { rate_limit_per_s: f.rateLimit } : {}),
          uid: f.uid ?? null,
          metadata: f.metadata ?? {},
          channels: f.channels ?? null,
          ...(f.secret ? { secret: f.secret } : {}),
        },
        req.actor,
      );
      return { status: 201, body: endpointOut(endpoint) };
    }),
  );

  app.get<{ Params: P<'app' | 'endpoint'> }>('/api/v1/app/:app/endpoint/:endpoint', { config }, async (req) =>
    endpointOut((await endpointFor(rt, req, req.params.app, req.params.endpoint)).endpoint),
  );

  const edit = (replace: boolean) => async (req: FastifyRequest<{ Params: P<'app' | 'endpoint'> }>) => {
    const f = readEndpoint(req.body, replace);
    const { app: t, endpoint: e } = await endpointFor(rt, req, req.params.app, req.params.endpoint);
    const given = <T>(v: T | undefined, reset: T): T | undefined => (v !== undefined ? v : replace ? reset : undefined);
    const disabled = given(f.disabled, false);
    const status = disabled === undefined ? undefined : disabled ? 'paused' : 'active';
    await engine.endpoints.update(
      t.id,
      e.id,
      {
        ...(f.url !== undefined ? { url: f.url } : {}),
        ...(given(f.description, '') !== undefined ? { description: given(f.description, '') } : {}),
        ...(given(f.filterTypes, null) !== undefined ? { event_types: f.filterTypes ?? [] } : {}),
        ...(given(f.rateLimit, null) !== undefined ? { rate_limit_per_s: f.rateLimit ?? null } : {}),
        ...(status !== undefined && status !== (e.status === 'paused' ? 'paused' : 'active') ? { status } : {}),
      },
      req.actor,
    );
    return endpointOut(await engine.endpoints.setLabels(t.id, e.id, labelsOf(e, f, replace), req.actor));
  };
  app.put<{ Params: P<'app' | 'endpoint'> }>('/api/v1/app/:app/endpoint/:endpoint', { config }, edit(true));
  app.patch<{ Params: P<'app' | 'endpoint'> }>('/api/v1/app/:app/endpoint/:endpoint', { config }, edit(false));

  app.delete<{ Params: P<'app' | 'endpoint'> }>(
    '/api/v1/app/:app/endpoint/:endpoint',
    { config },
    async (req, reply) => {
      const { app: t, endpoint: e } = await endpointFor(rt, req, req.params.app, req.params.endpoint);
      await engine.endpoints.delete(t.id, e.id, req.actor);
      return reply.code(204).send();
    },
  );
}
