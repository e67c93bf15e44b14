// An endpoint's secret (get, rotate), headers (get, put, patch), recover (a window replay), stats and send-example.
import { fail, SVIX_EVENT_TYPE_NAME } from '@hookline/core';
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../runtime.ts';
import { exampleOf, versionFor } from './event-type-contract.ts';
import { endpointFor, type P } from './svix-context.ts';
import { answerOnce } from './svix-idempotency.ts';
import { FieldReader } from './svix-input.ts';
import { messageOut } from './svix-view.ts';

type EP = { Params: P<'app' | 'endpoint'> };
const BASE = '/api/v1/app/:app/endpoint/:endpoint';

export function svixEndpointExtraRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine } = rt;
  const config = { auth: 'tenant' as const };

  app.get<EP>(`${BASE}/secret`, { config }, async (req) => {
    const { app: t, endpoint: e } = await endpointFor(rt, req, req.params.app, req.params.endpoint);
    const [current] = await engine.endpointSecrets.list(t.id, e.id);
    if (!current?.secret) throw fail('endpoint_not_found');
    return { key: current.secret };
  });

  app.post<EP>(`${BASE}/secret/rotate`, { config }, (req, reply) =>
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

  app.get<EP>(`${BASE}/headers`, { config }, async (req) => {
    const { endpoint: e } = await endpointFor(rt, req, req.params.app, req.params.endpoint);
    return { headers: e.customHeaders ?? {}, sensitive: [] };
  });

  const editHeaders =
    (replace: boolean) => async (req: import('fastify').FastifyRequest<EP>, reply: import('fastify').FastifyReply) => {
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
  app.put<EP>(`${BASE}/headers`, { config }, editHeaders(true));
  app.patch<EP>(`${BASE}/headers`, { config }, editHeaders(false));

  app.post<EP>(`${BASE}/recover`, { config }, (req, reply) =>
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

  app.get<EP>(`${BASE}/stats`, { config }, async (req) => {
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

  app.post<EP>(`${BASE}/send-example`, { config }, (req, reply) =>
    answerOnce(rt, req, reply, async () => {
      const r = new FieldReader(req.body);
      const eventType = r.string('eventType', { required: true, pattern: SVIX_EVENT_TYPE_NAME });
      const index = r.integer('exampleIndex', { min: 0 }) ?? 0;
      r.done();
      const { app: t, endpoint: e } = await endpointFor(rt, req, req.params.app, req.params.endpoint);
      const def = await rt.eventTypes.get(eventType!);
      if (!def) throw fail('event_type_not_found');
      const payload = exampleOf(def, versionFor(def), index);
      // To this endpoint only, whatever it subscribes to (Svix's send-example).
      const accepted = await engine.events.acceptFor(t.id, e.id, {
        type: eventType!,
        data: payload,
        payload_format: t.payloadFormat ?? 'envelope',
      });
      return { status: 202, body: messageOut(accepted.event, { channels: null, tags: null }) };
    }),
  );
}
