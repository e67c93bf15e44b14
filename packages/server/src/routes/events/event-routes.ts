// Events: accept one (202, idempotent on event_id) or up to 1,000 at once, and read one back with its deliveries.
import {
  type AcceptResult,
  type Environment,
  EVENT_TYPE_NAME,
  type EventInput,
  fail,
  HooklineError,
} from '@hookline/core';
import type { FastifyInstance } from 'fastify';
import { isStorageUnavailable } from '../../http/error-reply.ts';
import { parseTime } from '../../http/query.ts';
import { addRoute, paramsSchema } from '../../http/route.ts';
import { named } from '../../http/schema-names.ts';
import { bodyAjv, detailsOf, fieldError, validationError } from '../../http/validation.ts';
import { ErrorSchema } from '../../http/views.ts';
import type { Runtime } from '../../runtime.ts';
import { endWithAnswer, startAcceptSpan, withTraceContext } from '../../tracing/accept-span.ts';
import { DeliverySchema, deliveryView } from '../deliveries/delivery-view.ts';
import { AcceptedEventSchema, acceptedEventView, EventSchema, eventView } from './event-view.ts';

const tag = 'events';
const tenantAttr = (tenant: string) => ({ 'hookline.tenant.id': tenant });
export const MAX_BATCH = 1000;

const EventInputSchema = named('EventInput', {
  type: 'object',
  required: ['type', 'data'],
  additionalProperties: false,
  properties: {
    event_id: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7e]+$',
      description: 'Your id; the same id with the same body is accepted once. Default: a generated evt_ id.',
    },
    type: { type: 'string', minLength: 1, maxLength: EVENT_TYPE_NAME.maxLength, pattern: EVENT_TYPE_NAME.pattern },
    version: { type: 'string', minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_.-]+$', description: 'Default "1".' },
    occurred_at: { type: 'string', maxLength: 64, description: 'ISO-8601; default: the time of acceptance.' },
    data: { description: "Any JSON value; validated against the event type's schema when the type is registered." },
    traceparent: {
      type: 'string',
      maxLength: 256,
      description:
        "The producer's W3C traceparent, for an event whose trace differs from the request's `traceparent` header (a batch item); stored with the event, continued by its attempts (docs/observability.md#traces). Not part of the envelope; an invalid value is ignored.",
    },
    tracestate: { type: 'string', maxLength: 1024, description: 'The W3C tracestate beside `traceparent`.' },
    ordering_key: {
      type: 'string',
      minLength: 1,
      pattern: '^[^\\x00-\\x1f\\x7f]+$',
      description:
        'At most 256 bytes of UTF-8, no control characters (e.g. a payment id). On endpoints with ordering key, deliveries of one key are attempted one at a time in accept order; not part of the envelope. 400 ordering_key_too_long above 256 bytes.',
    },
  },
} as const);

const AcceptedSchema = named('EventAccepted', {
  type: 'object',
  required: ['event', 'deliveries', 'duplicate'],
  properties: {
    event: AcceptedEventSchema,
    deliveries: { type: 'array', items: DeliverySchema },
    duplicate: {
      type: 'boolean',
      description: 'true: this event_id was already accepted with the same body; nothing new was created.',
    },
  },
});

const BatchItemSchema = named('EventBatchItem', {
  type: 'object',
  required: ['index', 'ok'],
  properties: {
    index: { type: 'integer' },
    ok: { type: 'boolean' },
    event: AcceptedEventSchema,
    deliveries: { type: 'array', items: DeliverySchema },
    duplicate: { type: 'boolean' },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: (ErrorSchema.properties as { error: { properties: { details: object } } }).error.properties.details,
      },
    },
  },
});

function accepted(r: Exclude<AcceptResult, { kind: 'conflict' | 'limited' }>, environment: Environment) {
  return {
    event: acceptedEventView(r.event),
    deliveries: r.deliveries.map((d) => deliveryView(d, environment)),
    duplicate: r.kind === 'existing',
  };
}

export function eventRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine, eventTypes, config } = rt;
  // Batch items are checked one by one so one bad item does not refuse its neighbours; strictly, as a single event's
  // body is (`"version": 2` is refused, not turned into "2").
  const checkItem = bodyAjv.compile(EventInputSchema);

  /**
   * Everything but the commit: shape, occurred_at, the type's schema (400s name the field or path). Throws, or returns
   * a promise only when the type's definition must be read first (a batch's thousand items await none).
   */
  function check(input: EventInput, at = ''): Promise<void> | undefined {
    parseTime(input.occurred_at, 'body', `${at}/occurred_at`);
    const version = input.version ?? '1';
    if (eventTypes.checkCached(input.type, version, input.data, config.strictEventTypes)) return undefined;
    return eventTypes.check(input.type, version, input.data, config.strictEventTypes);
  }

  addRoute<{ tenant: string }, unknown, EventInput>(app, {
    method: 'POST',
    url: '/v1/tenants/:tenant/events',
    operationId: 'sendEvent',
    tag,
    auth: 'tenant',
    summary: 'Accept an event: answered 202 once it and its deliveries are on disk',
    description:
      "Idempotent on event_id: the same id and body returns the existing event (duplicate: true); a different body is 409 event_conflict. Over the tenant's limits (docs/rules.md#tenant-limits): 429 tenant_rate_limited or tenant_quota_exceeded with Retry-After, 413 payload_too_large; nothing is stored. A duplicate is never counted nor refused.",
    params: paramsSchema('tenant'),
    body: EventInputSchema,
    bodyLimit: config.bodyLimitBytes,
    response: { 202: AcceptedSchema },
    handler: async (req, reply) => {
      // The producer's traceparent header, and the accept's span when tracing is on (docs/observability.md#traces).
      const t = startAcceptSpan(rt.tracer, req.headers, '/v1/tenants/:tenant/events', tenantAttr(req.params.tenant));
      endWithAnswer(t, reply);
      if (req.body.data === undefined) throw fieldError('body', '/data', 'is required');
      await check(req.body);
      // Read before the commit (authorize has just cached it): nothing after the commit may turn a stored event into an error.
      const environment = await rt.authLookups.environmentOf(req.params.tenant);
      const r = await engine.events.accept(req.params.tenant, withTraceContext(req.body, t.context));
      return reply.code(202).send(accepted(r, environment));
    },
  });

  addRoute<{ tenant: string }, unknown, { events: unknown[] }>(app, {
    method: 'POST',
    url: '/v1/tenants/:tenant/events/batch',
    operationId: 'sendEvents',
    tag,
    auth: 'tenant',
    summary: `Accept up to ${MAX_BATCH} events at once; each gets its own result`,
    description:
      "Valid items are committed together; an invalid or conflicting item gets an error object and does not affect the others. When storage fails and no item was stored, the answer is 503 storage_unavailable, not a 202. Every new item counts against the tenant's limits (docs/rules.md#tenant-limits), in order: the items past a limit get tenant_rate_limited, tenant_quota_exceeded or payload_too_large and are not stored; when every item was refused by the rate or daily limit, the answer is that 429 with Retry-After.",
    params: paramsSchema('tenant'),
    body: {
      type: 'object',
      required: ['events'],
      additionalProperties: false,
      properties: { events: { type: 'array', items: { type: 'object' } } },
    },
    bodyLimit: config.batchBodyLimitBytes,
    response: {
      202: {
        type: 'object',
        required: ['accepted', 'failed', 'results'],
        properties: {
          accepted: { type: 'integer' },
          failed: { type: 'integer' },
          results: { type: 'array', items: BatchItemSchema },
        },
      },
    },
    handler: async (req, reply) => {
      // The request's traceparent is every item's that carries none of its own (docs/observability.md#traces).
      const route = '/v1/tenants/:tenant/events/batch';
      const t = startAcceptSpan(rt.tracer, req.headers, route, {
        ...tenantAttr(req.params.tenant),
        'hookline.batch.size': req.body.events.length,
      });
      endWithAnswer(t, reply);
      const items = req.body.events;
      if (items.length > MAX_BATCH) throw fail('batch_too_large', { max: MAX_BATCH });
      if (items.length === 0) throw fieldError('body', '/events', 'must hold at least one event');
      const results: Array<Record<string, unknown>> = new Array(items.length);
      const valid: Array<{ index: number; input: EventInput }> = [];
      let storageFailed: unknown = null;
      let limited: HooklineError | null = null;
      let limitedItems = 0;
      const errorOf = (index: number, err: unknown) => {
        const storage = !(err instanceof HooklineError) && isStorageUnavailable(err);
        if (storage) storageFailed ??= err;
        const e = err instanceof HooklineError ? err : fail(storage ? 'storage_unavailable' : 'internal_error');
        if (e.code === 'tenant_rate_limited' || e.code === 'tenant_quota_exceeded') {
          limited ??= e;
          limitedItems++;
        }
        if (!(err instanceof HooklineError))
          rt.logger.log('error', storage ? 'batch item not stored: storage unavailable' : 'batch item failed', {
            request_id: req.id,
            index,
            error: (err as Error)?.message,
          });
        results[index] = {
          index,
          ok: false,
          error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) },
        };
      };
      for (let i = 0; i < items.length; i++) {
        const input = items[i] as EventInput;
        if (!checkItem(input)) {
          errorOf(i, validationError(detailsOf(checkItem.errors ?? [], 'body', `/events/${i}`)));
          continue;
        }
        try {
          const reading = check(input, `/events/${i}`);
          if (reading !== undefined) await reading;
          valid.push({ index: i, input });
        } catch (err) {
          errorOf(i, err);
        }
      }
      const environment = await rt.authLookups.environmentOf(req.params.tenant);
      // Submitted together, the items share the ingest's group commits; each settles on its own.
      const outcomes = await engine.events.acceptMany(
        req.params.tenant,
        valid.map((v) => withTraceContext(v.input, t.context)),
      );
      for (const [k, r] of outcomes.entries()) {
        const { index } = valid[k];
        if (r instanceof Error) errorOf(index, r);
        else results[index] = { index, ok: true, ...accepted(r, environment) };
      }
      const ok = results.filter((r) => r.ok).length;
      // Nothing stored because the storage failed: the whole request failed, and says so (a 202 would read as taken).
      if (ok === 0 && storageFailed !== null) throw storageFailed;
      // Every item refused by the tenant's rate or daily limit (docs/rules.md#tenant-limits): a 429 with Retry-After, as
      // a single event gets. Otherwise the 202 lists the refused ones beside the accepted ones.
      if (limited !== null && limitedItems === results.length) throw limited;
      return reply.code(202).send({ accepted: ok, failed: results.length - ok, results });
    },
  });

  addRoute<{ tenant: string; event_id: string }>(app, {
    method: 'GET',
    url: '/v1/tenants/:tenant/events/:event_id',
    operationId: 'getEvent',
    summary: 'Get an event (by your event_id) with its deliveries',
    tag,
    auth: 'tenant',
    params: paramsSchema('tenant', 'event_id'),
    response: {
      200: {
        type: 'object',
        required: ['event', 'deliveries'],
        properties: { event: EventSchema, deliveries: { type: 'array', items: DeliverySchema } },
      },
    },
    handler: async (req) => {
      const [found, environment] = await Promise.all([
        engine.events.get(req.params.tenant, req.params.event_id),
        rt.authLookups.environmentOf(req.params.tenant),
      ]);
      return { event: eventView(found.event), deliveries: found.deliveries.map((d) => deliveryView(d, environment)) };
    },
  });
}
