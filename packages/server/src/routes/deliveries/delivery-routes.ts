// Deliveries: filter and page through them (the dead letter is status=failed), read one with every attempt, and retry
// now (one delivery, or every pending one of an endpoint).
import { DELIVERY_STATUSES, type DeliveryStatus } from '@hookline/core';
import type { FastifyInstance } from 'fastify';
import { parseCursor, parseTime } from '../../http/query.ts';
import { addRoute, pagingQuery, paramsSchema } from '../../http/route.ts';
import { named } from '../../http/schema-names.ts';
import { pageSchema } from '../../http/views.ts';
import type { Runtime } from '../../runtime.ts';
import { attemptView } from './attempt-view.ts';
import {
  DeliveryDetailSchema,
  DeliveryListItemSchema,
  DeliverySchema,
  deliveryListView,
  deliveryView,
} from './delivery-view.ts';

const tag = 'deliveries';

const RetryMovedSchema = named('RetryMoved', {
  type: 'object',
  additionalProperties: false,
  required: ['moved'],
  properties: {
    moved: { type: 'integer', description: 'Pending deliveries made due now (of an ordering key, only its head).' },
  },
});

interface ListQuery {
  status?: DeliveryStatus;
  endpoint_id?: string;
  event_type?: string;
  event_id?: string;
  since?: string;
  until?: string;
  limit: number;
  cursor?: string;
}

export function deliveryRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine } = rt;

  addRoute<{ tenant: string }, ListQuery>(app, {
    method: 'GET',
    url: '/v1/tenants/:tenant/deliveries',
    operationId: 'listDeliveries',
    summary: 'List deliveries, newest first',
    tag,
    auth: 'tenant',
    description: "since/until (ISO-8601, inclusive) bound the delivery's creation time.",
    params: paramsSchema('tenant'),
    querystring: {
      type: 'object',
      additionalProperties: false,
      properties: {
        status: { type: 'string', enum: [...DELIVERY_STATUSES] },
        endpoint_id: { type: 'string', maxLength: 64 },
        event_type: { type: 'string', maxLength: 200 },
        event_id: {
          type: 'string',
          minLength: 1,
          maxLength: 255,
          description: "Your event_id: only that event's deliveries",
        },
        since: { type: 'string', description: 'ISO-8601, inclusive' },
        until: { type: 'string', description: 'ISO-8601, inclusive' },
        ...pagingQuery,
      },
    },
    response: { 200: pageSchema(DeliveryListItemSchema) },
    handler: async (req) => {
      const q = req.query;
      const since = parseTime(q.since, 'query', '/since');
      const until = parseTime(q.until, 'query', '/until');
      const environment = await rt.authLookups.environmentOf(req.params.tenant);
      const page = await engine.deliveries.list(
        {
          tenantId: req.params.tenant,
          ...(q.status ? { status: q.status } : {}),
          ...(q.endpoint_id ? { endpointId: q.endpoint_id } : {}),
          ...(q.event_type ? { eventType: q.event_type } : {}),
          ...(q.event_id ? { eventId: q.event_id } : {}),
          ...(since !== undefined ? { since } : {}),
          ...(until !== undefined ? { until } : {}),
        },
        parseCursor(q.cursor),
        q.limit,
      );
      return { items: page.items.map((d) => deliveryListView(d, environment)), next_cursor: page.nextCursor };
    },
  });

  addRoute<{ tenant: string; delivery: string }>(app, {
    method: 'GET',
    url: '/v1/tenants/:tenant/deliveries/:delivery',
    operationId: 'getDelivery',
    summary: 'Get a delivery with its payload and every attempt',
    tag,
    auth: 'tenant',
    params: paramsSchema('tenant', 'delivery'),
    response: { 200: DeliveryDetailSchema },
    handler: async (req) => {
      const [{ delivery, body, attempts }, environment] = await Promise.all([
        engine.deliveries.detail(req.params.tenant, req.params.delivery),
        rt.authLookups.environmentOf(req.params.tenant),
      ]);
      return {
        ...deliveryView(delivery, environment),
        payload: body ? (JSON.parse(body.toString('utf8')) as unknown) : null,
        attempts: attempts.map(attemptView),
      };
    },
  });

  addRoute<{ tenant: string; delivery: string }>(app, {
    method: 'POST',
    url: '/v1/tenants/:tenant/deliveries/:delivery/retry',
    operationId: 'retryDelivery',
    summary: 'Retry now: a pending delivery becomes due now, as its next attempt',
    tag,
    auth: 'tenant',
    description:
      'docs/rules.md#retry-now. The attempt counts on its retry ladder (not a replay). 409 delivery_finished (replay it ' +
      'instead), delivery_in_flight, delivery_not_head (a later delivery of an ordering key; names the head), ' +
      "breaker_open (held by a breaker that is not closed; the message carries the breaker's state), endpoint_paused.",
    params: paramsSchema('tenant', 'delivery'),
    response: { 200: DeliverySchema },
    handler: async (req) =>
      deliveryView(
        await engine.deliveries.retry(req.params.tenant, req.params.delivery, req.actor),
        await rt.authLookups.environmentOf(req.params.tenant),
      ),
  });

  addRoute<{ tenant: string; endpoint: string }>(app, {
    method: 'POST',
    url: '/v1/tenants/:tenant/endpoints/:endpoint/retry',
    operationId: 'retryEndpoint',
    summary: 'Retry now: every pending delivery of the endpoint becomes due now',
    tag,
    auth: 'tenant',
    description:
      "docs/rules.md#retry-now. Sent as the endpoint's concurrency cap and rate limit allow; of an ordering key only its " +
      'head moves; deliveries held by an open breaker stay held. 409 endpoint_paused on a paused endpoint.',
    params: paramsSchema('tenant', 'endpoint'),
    response: { 200: RetryMovedSchema },
    handler: async (req) => engine.endpoints.retry(req.params.tenant, req.params.endpoint, req.actor),
  });
}
