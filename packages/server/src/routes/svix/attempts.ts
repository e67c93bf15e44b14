// Svix message attempts = Hookline attempts: listed by endpoint or by message (a page of deliveries, newest first,
// each with its attempts), one by id, and resend (a new delivery of the message to one endpoint, succeeded or not).
import { type Delivery, fail, type Tenant } from '@hookline/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Runtime } from '../../runtime.ts';
import { appFor, endpointFor, type P, paging } from './svix-context.ts';
import { answerOnce } from './svix-idempotency.ts';
import { FieldReader } from './svix-input.ts';
import { attemptOut, endpointMessageOut, listOut, messageStatus } from './svix-view.ts';

type AttemptView = ReturnType<typeof attemptOut>;

export function svixAttemptRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine } = rt;
  const config = { auth: 'tenant' as const };

  /** Every attempt of each delivery, newest first, with the endpoint's URL. */
  async function attemptsOf(t: Tenant, deliveries: Delivery[]): Promise<AttemptView[]> {
    const urls = new Map<string, string>();
    const out: AttemptView[] = [];
    for (const d of deliveries) {
      const { attempts } = await engine.deliveries.detail(t.id, d.id);
      if (!urls.has(d.endpointId)) urls.set(d.endpointId, (await engine.endpoints.find(t.id, d.endpointId))?.url ?? '');
      for (const a of [...attempts].reverse()) out.push(attemptOut(a, d, urls.get(d.endpointId)!));
    }
    return out;
  }

  function readFilter(query: unknown): { status?: number; since?: number; until?: number } {
    const q = new FieldReader(query, 'query');
    const status = q.integer('status', { min: 0, max: 4 });
    const after = q.date('after');
    const before = q.date('before');
    q.done();
    return {
      ...(status != null ? { status } : {}),
      ...(after !== undefined ? { since: after } : {}),
      ...(before !== undefined ? { until: before } : {}),
    };
  }

  /** A page of the endpoint's deliveries within the query's window, with the app and the query's filter. */
  async function endpointDeliveries(req: FastifyRequest<{ Params: P<'app' | 'endpoint'> }>) {
    const { app: t, endpoint: e } = await endpointFor(rt, req, req.params.app, req.params.endpoint);
    const { limit, cursor } = paging(req.query as Record<string, unknown>);
    const f = readFilter(req.query);
    const window = {
      ...(f.since !== undefined ? { since: f.since } : {}),
      ...(f.until !== undefined ? { until: f.until } : {}),
    };
    const page = await engine.deliveries.list({ tenantId: t.id, endpointId: e.id, ...window }, cursor, limit);
    return { t, f, page };
  }

  app.get<{ Params: P<'app' | 'endpoint'> }>('/api/v1/app/:app/attempt/endpoint/:endpoint', { config }, async (req) => {
    const { t, f, page } = await endpointDeliveries(req);
    const data = (await attemptsOf(t, page.items)).filter((a) => f.status === undefined || a.status === f.status);
    return listOut(data, page.nextCursor);
  });

  // The messages an endpoint was sent, newest first, each with its delivery's state there.
  app.get<{ Params: P<'app' | 'endpoint'> }>('/api/v1/app/:app/endpoint/:endpoint/msg', { config }, async (req) => {
    const { t, f, page } = await endpointDeliveries(req);
    const withContent = (req.query as Record<string, unknown>).with_content !== 'false';
    const data = [];
    for (const d of page.items) {
      const m = await engine.messages.get(t.id, d.eventPk).catch(() => null);
      if (m && (f.status === undefined || messageStatus(d.status) === f.status))
        data.push(endpointMessageOut(m.event, m, d, withContent));
    }
    return listOut(data, page.nextCursor);
  });

  app.get<{ Params: P<'app' | 'msg'> }>('/api/v1/app/:app/attempt/msg/:msg', { config }, async (req) => {
    const t = await appFor(rt, req, req.params.app);
    const m = await engine.messages.get(t.id, req.params.msg);
    const f = readFilter(req.query);
    const endpointId = (req.query as Record<string, unknown>).endpoint_id;
    const deliveries = m.deliveries
      .filter((d) => typeof endpointId !== 'string' || d.endpointId === endpointId)
      .sort((a, b) => (a.id < b.id ? 1 : -1));
    const data = (await attemptsOf(t, deliveries)).filter((a) => f.status === undefined || a.status === f.status);
    return listOut(data, null);
  });

  app.get<{ Params: P<'app' | 'msg' | 'attempt'> }>(
    '/api/v1/app/:app/msg/:msg/attempt/:attempt',
    { config },
    async (req) => {
      const t = await appFor(rt, req, req.params.app);
      const m = await engine.messages.get(t.id, req.params.msg);
      const found = (await attemptsOf(t, m.deliveries)).find((a) => a.id === req.params.attempt);
      if (!found) throw fail('attempt_not_found');
      return found;
    },
  );

  app.post<{ Params: P<'app' | 'msg' | 'endpoint'> }>(
    '/api/v1/app/:app/msg/:msg/endpoint/:endpoint/resend',
    { config },
    (req, reply) =>
      answerOnce(rt, req, reply, async () => {
        const { app: t, endpoint: e } = await endpointFor(rt, req, req.params.app, req.params.endpoint);
        await engine.messages.resend(t.id, req.params.msg, e.id, req.actor);
        return { status: 202, body: {} };
      }),
  );
}
