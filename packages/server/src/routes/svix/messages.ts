// Svix messages = Hookline events sent with the application's payload format: create (the application inline when
// asked), list (by event type, channel, time), get by id or the caller's eventId, and a message's endpoints.
import { fail, SVIX_EVENT_TYPE_NAME } from '@hookline/core';
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../runtime.ts';
import { versionFor } from './event-type-contract.ts';
import { appFor, type P, paging } from './svix-context.ts';
import { answerOnce } from './svix-idempotency.ts';
import { CHANNEL_PATTERN, FieldReader, UID_PATTERN } from './svix-input.ts';
import { listOut, messageEndpointOut, messageOut } from './svix-view.ts';

export function svixMessageRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine } = rt;
  const config = { auth: 'tenant' as const };

  app.post<{ Params: P<'app'> }>('/api/v1/app/:app/msg', { config }, (req, reply) =>
    answerOnce(rt, req, reply, async () => {
      const r = new FieldReader(req.body);
      const eventType = r.string('eventType', { required: true, pattern: SVIX_EVENT_TYPE_NAME });
      if (!r.has('payload')) r.string('payload', { required: true });
      const payload = r.raw('payload');
      const eventId = r.nullableString('eventId', { max: 256, pattern: UID_PATTERN });
      const channels = r.strings('channels', { max: 10, pattern: CHANNEL_PATTERN });
      const tags = r.strings('tags', { max: 5, itemMax: 128 });
      r.integer('payloadRetentionPeriod', { min: 1, max: 90 });
      r.integer('payloadRetentionHours', { min: 1 });
      const inline = new FieldReader(r.raw('application'));
      const inlineName = r.has('application') ? inline.string('name', { required: true, max: 200 }) : undefined;
      const inlineUid = r.has('application') ? inline.nullableString('uid', { pattern: UID_PATTERN }) : undefined;
      r.done();
      inline.done();
      const withContent = (req.query as Record<string, unknown>).with_content !== 'false';
      // `application`: create it when missing (Svix's inline application), the admin only.
      let t = await engine.tenants.findByIdOrUid(req.params.app);
      if (!t && inlineName !== undefined) {
        if (req.principal?.kind !== 'admin') throw fail('forbidden');
        t = await engine.tenants.create(
          { name: inlineName, uid: inlineUid ?? req.params.app, payload_format: 'raw' },
          req.actor,
        );
      }
      const tenant = await appFor(rt, req, t?.id ?? req.params.app);
      // The registry checks the payload like Hookline's own events (422 naming the field).
      const def = await rt.eventTypes.get(eventType!);
      await rt.eventTypes.check(eventType!, versionFor(def), payload, rt.config.strictEventTypes);
      const m = await engine.messages.send(tenant.id, {
        type: eventType!,
        data: payload,
        ...(eventId ? { event_id: eventId } : {}),
        ...(channels ? { channels } : {}),
        ...(tags ? { tags } : {}),
      });
      return { status: 202, body: messageOut(m.event, m, withContent) };
    }),
  );

  app.get<{ Params: P<'app'> }>('/api/v1/app/:app/msg', { config }, async (req) => {
    const t = await appFor(rt, req, req.params.app);
    const { limit, cursor } = paging(req.query as Record<string, unknown>);
    const q = new FieldReader(req.query, 'query');
    const eventTypes = q.strings('event_types', { max: 100, pattern: SVIX_EVENT_TYPE_NAME });
    const channel = q.string('channel', { pattern: CHANNEL_PATTERN });
    const after = q.date('after');
    const before = q.date('before');
    const withContent = q.boolean('with_content') ?? true;
    q.done();
    const page = await engine.messages.list(
      t.id,
      {
        ...(eventTypes?.length ? { eventTypes } : {}),
        ...(channel !== undefined ? { channel } : {}),
        ...(after !== undefined ? { since: after } : {}),
        ...(before !== undefined ? { until: before } : {}),
      },
      cursor,
      limit,
    );
    return listOut(
      page.items.map((m) => messageOut(m.event, m, withContent)),
      page.nextCursor,
    );
  });

  app.get<{ Params: P<'app' | 'msg'> }>('/api/v1/app/:app/msg/:msg', { config }, async (req) => {
    const t = await appFor(rt, req, req.params.app);
    const m = await engine.messages.get(t.id, req.params.msg);
    return messageOut(m.event, m, (req.query as Record<string, unknown>).with_content !== 'false');
  });

  app.get<{ Params: P<'app' | 'msg'> }>('/api/v1/app/:app/msg/:msg/endpoint', { config }, async (req) => {
    const t = await appFor(rt, req, req.params.app);
    return listOut((await engine.messages.destinations(t.id, req.params.msg)).map(messageEndpointOut), null);
  });
}
