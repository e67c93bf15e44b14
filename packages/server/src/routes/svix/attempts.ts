// Svix message attempts = Hookline attempts: listed by endpoint or by message (a page of deliveries, newest first,
// each with its attempts), one by id, and resend (a new delivery of the message to one endpoint, succeeded or not).
import { type DeliveryWindow, fail } from '@hookline/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Runtime } from '../../runtime.ts';
import { appFor, endpointFor, type P, paging } from './svix-context.ts';
import { answerOnce } from './svix-idempotency.ts';
import { FieldReader } from './svix-input.ts';
import { attemptOut, endpointMessageOut, listOut, messageStatus } from './svix-view.ts';

export function svixAttemptRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine } = rt;
  const config = { auth: 'tenant' as const };

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

  /** The endpoint, its app, the page asked for and the query's filter, with the window it sets on deliveries. */
  async function endpointQuery(req: FastifyRequest<{ Params: P<'app' | 'endpoint'> }>) {
    const { app: t, endpoint: e } = await endpointFor(rt, req, req.params.app, req.params.endpoint);
    const { limit, cursor } = paging(req.query as Record<string, unknown>);
    const f = readFilter(req.query);
    const window: DeliveryWindow = {
      ...(f.since !== undefined ? { since: f.since } : {}),
      ...(f.until !== undefined ? { until: f.until } : {}),
    };
    return { t, e, f, window, cursor, limit };
  }

  app.get<{ Params: P<'app' | 'endpoint'> }>('/api/v1/app/:app/attempt/endpoint/:endpoint', { config }, async (req) => {
    const { t, e, f, window, cursor, limit } = await endpointQuery(req);
    const page = await engine.messages.endpointAttempts(t.id, e.id, window, cursor, limit);
    const data = page.items
      .flatMap((d) => d.attempts.map(attemptOut))
      .filter((a) => f.status === undefined || a.status === f.status);
    return listOut(data, page.nextCursor);
  });

  // The messages an endpoint was sent, newest first, each with its delivery's state there.
  app.get<{ Params: P<'app' | 'endpoint'> }>('/api/v1/app/:app/endpoint/:endpoint/msg', { config }, async (req) => {
    const { t, e, f, window, cursor, limit } = await endpointQuery(req);
    const withContent = (req.query as Record<string, unknown>).with_content !== 'false';
    const page = await engine.messages.endpointMessages(t.id, e.id, window, cursor, limit);
    const data = page.items
      .filter((m) => f.status === undefined || messageStatus(m.status) === f.status)
      .map((m) => endpointMessageOut(m, withContent));
    return listOut(data, page.nextCursor);
  });

  app.get<{ Params: P<'app' | 'msg'> }>('/api/v1/app/:app/attempt/msg/:msg', { config }, async (req) => {
    const t = await appFor(rt, req, req.params.app);
    const f = readFilter(req.query);
    const endpointId = (req.query as Record<string, unknown>).endpoint_id;
    const attempts = await engine.messages.attempts(
      t.id,
      req.params.msg,
      typeof endpointId === 'string' ? endpointId : null,
    );
    const data = attempts.map(attemptOut).filter((a) => f.status === undefined || a.status === f.status);
    return listOut(data, null);
  });

  app.get<{ Params: P<'app' | 'msg' | 'attempt'> }>(
    '/api/v1/app/:app/msg/:msg/attempt/:attempt',
    { config },
    async (req) => {
      const t = await appFor(rt, req, req.params.app);
      const found = (await engine.messages.attempts(t.id, req.params.msg)).find(
        (a) => a.attempt.id === req.params.attempt,
      );
      if (!found) throw fail('attempt_not_found');
      return attemptOut(found);
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
