// Svix `endpoint.sendExample`: one message of a registered event type's example, to this endpoint only, whatever it
// subscribes to.
import { fail, SVIX_EVENT_TYPE_NAME } from '@hookline/core';
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../runtime.ts';
import { exampleOf, versionFor } from './event-type-contract.ts';
import { endpointFor, type P } from './svix-context.ts';
import { answerOnce } from './svix-idempotency.ts';
import { FieldReader } from './svix-input.ts';
import { messageOut } from './svix-view.ts';

type EP = { Params: P<'app' | 'endpoint'> };

export function svixEndpointSendExampleRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine } = rt;
  const config = { auth: 'tenant' as const };

  app.post<EP>('/api/v1/app/:app/endpoint/:endpoint/send-example', { config }, (req, reply) =>
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
