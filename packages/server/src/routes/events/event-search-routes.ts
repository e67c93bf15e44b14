// Event search and export: `GET /v1/tenants/:tenant/events` pages through a tenant's events by type, accept-time window,
// event_id prefix and payload filter; with `Accept: application/x-ndjson` (or format=ndjson) it streams the whole
// selection as NDJSON, resumable with after=<last id> (docs/api.md#event-search).
import {
  EVENT_SEARCH_LIMITS,
  type EventSearchQuery,
  fail,
  isHooklineError,
  type PayloadFilter,
  parsePayloadFilter,
} from '@hookline/core';
import type { FastifyInstance } from 'fastify';
import { sendNdjson, wantsNdjson } from '../../http/ndjson-stream.ts';
import { parseTime } from '../../http/query.ts';
import { addRoute, MAX_PAGE_LIMIT, paramsSchema } from '../../http/route.ts';
import { fieldError } from '../../http/validation.ts';
import { pageSchema } from '../../http/views.ts';
import type { Runtime } from '../../runtime.ts';
import { EventSearchItemSchema, eventSearchView } from './event-search-view.ts';

interface SearchQuery {
  type?: string;
  since?: string;
  until?: string;
  event_id_prefix?: string;
  filter?: string;
  limit: number;
  cursor?: string;
  after?: string;
  format?: 'json' | 'ndjson';
}

/** `filter=` is a payload filter as JSON (docs/filters.md): its own limits, its errors pointing into the query. */
function parseFilterParam(text: string | undefined): PayloadFilter | null {
  if (text === undefined || text === '') return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw fieldError(
      'query',
      '/filter',
      'must be a payload filter as JSON, e.g. {"path":"data.status","equals":"paid"}',
    );
  }
  try {
    return parsePayloadFilter(json);
  } catch (err) {
    if (!isHooklineError(err) || err.code !== 'invalid_filter') throw err;
    const details = (err.details ?? []).map((d) => ({
      in: 'query' as const,
      path: d.path.replace(/^\/payload_filter/, '/filter'),
      message: d.message,
    }));
    throw fail('invalid_filter', err.params, { details });
  }
}

export function eventSearchRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine } = rt;

  addRoute<{ tenant: string }, SearchQuery>(app, {
    method: 'GET',
    url: '/v1/tenants/:tenant/events',
    operationId: 'searchEvents',
    summary: 'Search events (oldest first), or export the whole selection as NDJSON',
    tag: 'events',
    auth: 'tenant',
    description: [
      "Events (not deliveries) by type, accept time (since/until, ISO-8601, inclusive: the event's created_at), event_id prefix and a payload filter (filter=, the endpoints' filter language as JSON, docs/filters.md), each with its deliveries' statuses.",
      'Order: by accept time (id); with event_id_prefix, by event_id (byte order).',
      `A page scans at most ${EVENT_SEARCH_LIMITS.pageScanRows} events or ${EVENT_SEARCH_LIMITS.pageScanMs} ms: with a filter it may hold fewer than limit items (even none) and still a next_cursor; only next_cursor null ends the search.`,
      `A filter without since or until over a tenant with more than ${EVENT_SEARCH_LIMITS.maxUnwindowedFilterScan} events (of the type, when given) is 400 event_search_window_required.`,
      'With Accept: application/x-ndjson or format=ndjson: the whole selection as NDJSON, one item per line, read and sent batch by batch as the client takes it; resume with after=<id of the last line>. A failure mid-stream ends it with a line {"error":{…}}.',
    ].join(' '),
    params: paramsSchema('tenant'),
    querystring: {
      type: 'object',
      additionalProperties: false,
      properties: {
        type: { type: 'string', minLength: 1, maxLength: 200 },
        since: { type: 'string', description: 'ISO-8601, inclusive (accept time)' },
        until: { type: 'string', description: 'ISO-8601, inclusive (accept time)' },
        event_id_prefix: {
          type: 'string',
          minLength: 1,
          maxLength: 255,
          description: 'Events whose event_id starts so',
        },
        filter: { type: 'string', maxLength: 8192, description: 'A payload filter as JSON (docs/filters.md)' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: 50 },
        cursor: { type: 'string', maxLength: 1024, description: 'next_cursor of the previous page' },
        after: {
          type: 'string',
          maxLength: 64,
          description: 'NDJSON export only: the id (evt_…) of the last line received; the export resumes after it',
        },
        format: { type: 'string', enum: ['json', 'ndjson'], description: 'Overrides the Accept header' },
      },
    },
    response: { 200: pageSchema(EventSearchItemSchema) },
    handler: async (req, reply) => {
      const q = req.query;
      const since = parseTime(q.since, 'query', '/since');
      const until = parseTime(q.until, 'query', '/until');
      const query: EventSearchQuery = {
        tenantId: req.params.tenant,
        ...(q.type !== undefined ? { type: q.type } : {}),
        ...(since !== undefined ? { since } : {}),
        ...(until !== undefined ? { until } : {}),
        ...(q.event_id_prefix !== undefined ? { eventIdPrefix: q.event_id_prefix } : {}),
        filter: parseFilterParam(q.filter),
      };
      if (wantsNdjson(req, q.format)) {
        if (q.cursor !== undefined)
          throw fieldError('query', '/cursor', 'an NDJSON export resumes with after=<last id>');
        const batches = engine.events.export(query, q.after ?? null);
        return sendNdjson(reply, batches, eventSearchView, (err) =>
          rt.logger.log(isHooklineError(err) ? 'warn' : 'error', 'event export stopped', {
            request_id: req.id,
            error: (err as Error)?.message,
          }),
        );
      }
      if (q.after !== undefined)
        throw fieldError('query', '/after', 'after= is for the NDJSON export; pages use cursor=');
      const page = await engine.events.search(query, q.cursor ?? null, q.limit);
      return { items: page.items.map(eventSearchView), next_cursor: page.nextCursor };
    },
  });
}
