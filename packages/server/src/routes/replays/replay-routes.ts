import type { FastifyInstance } from 'fastify';
import { parseTime } from '../../http/query.ts';
import { addRoute, paramsSchema } from '../../http/route.ts';
import type { Runtime } from '../../runtime.ts';
import { DeliverySchema, deliveryView } from '../deliveries/delivery-view.ts';
import { ReplayAcceptedSchema, ReplaySchema, replayView } from './replay-view.ts';

const tag = 'replays';

export function replayRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine } = rt;

  addRoute<{ tenant: string; delivery: string }>(app, {
    method: 'POST',
    url: '/v1/tenants/:tenant/deliveries/:delivery/replay',
    operationId: 'replayDelivery',
    tag,
    auth: 'tenant',
    summary: 'Replay one failed or skipped delivery: a single attempt now, same ids',
    params: paramsSchema('tenant', 'delivery'),
    response: { 202: ReplayAcceptedSchema },
    handler: async (req, reply) => {
      const r = await engine.replays.delivery(req.params.tenant, req.params.delivery, req.actor);
      return reply.code(202).send({ replay_id: r.id, replay: replayView(r) });
    },
  });

  addRoute<{ tenant: string; delivery: string }>(app, {
    method: 'POST',
    url: '/v1/tenants/:tenant/deliveries/:delivery/dismiss',
    operationId: 'dismissDelivery',
    tag,
    auth: 'tenant',
    summary: "Dismiss a failed delivery that holds its ordering key, so the key's later deliveries go on",
    description:
      'Only for a failed delivery of an ordering key on an endpoint with on_failure block (docs/rules.md#ordered-dismiss); ' +
      'it stays failed and replayable. 409 delivery_not_dismissable otherwise.',
    params: paramsSchema('tenant', 'delivery'),
    response: { 200: DeliverySchema },
    handler: async (req) =>
      deliveryView(
        await engine.deliveries.dismiss(req.params.tenant, req.params.delivery, req.actor),
        await rt.authLookups.environmentOf(req.params.tenant),
      ),
  });

  addRoute<
    { tenant: string; endpoint: string },
    unknown,
    { since?: string; until?: string; include_skipped?: boolean } | undefined
  >(app, {
    method: 'POST',
    url: '/v1/tenants/:tenant/endpoints/:endpoint/replays',
    operationId: 'replayWindow',
    tag,
    auth: 'tenant',
    summary: "Replay the endpoint's failed (and optionally skipped) deliveries attempted within [since, until]",
    description:
      'Defaults: since = 24 h ago, until = now; both inclusive, compared with the attempt time. At most the 10,000 oldest; ' +
      'a limited number per tenant per UTC day (429 replay_quota_exceeded, Retry-After until the next UTC midnight; a replay ' +
      'that selects nothing does not count); 409 endpoint_paused on a paused endpoint.',
    params: paramsSchema('tenant', 'endpoint'),
    body: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: {
        since: { type: 'string', description: 'ISO-8601' },
        until: { type: 'string', description: 'ISO-8601' },
        include_skipped: { type: 'boolean' },
      },
    },
    response: { 202: ReplayAcceptedSchema },
    handler: async (req, reply) => {
      const b = req.body ?? {};
      const since = parseTime(b.since, 'body', '/since');
      const until = parseTime(b.until, 'body', '/until');
      const r = await engine.replays.window(
        req.params.tenant,
        req.params.endpoint,
        {
          ...(since !== undefined ? { since } : {}),
          ...(until !== undefined ? { until } : {}),
          includeSkipped: b.include_skipped === true,
        },
        req.actor,
      );
      return reply.code(202).send({ replay_id: r.id, replay: replayView(r) });
    },
  });

  addRoute<{ tenant: string; replay: string }>(app, {
    method: 'GET',
    url: '/v1/tenants/:tenant/replays/:replay',
    operationId: 'getReplay',
    summary: "A replay's progress: selected, attempted, succeeded, failed",
    tag,
    auth: 'tenant',
    params: paramsSchema('tenant', 'replay'),
    response: { 200: ReplaySchema },
    handler: async (req) => replayView(await engine.replays.get(req.params.tenant, req.params.replay)),
  });
}
