// A tenant's notices (endpoint degraded, paused, recovered…), newest first: what the console shows.
import type { FastifyInstance } from 'fastify';
import { parseCursor } from '../../http/query.ts';
import { addRoute, pagingQuery, paramsSchema } from '../../http/route.ts';
import { pageSchema } from '../../http/views.ts';
import type { Runtime } from '../../runtime.ts';
import { NoticeSchema, noticeView } from './notice-view.ts';

export function noticeRoutes(app: FastifyInstance, rt: Runtime): void {
  addRoute<{ tenant: string }, { limit: number; cursor?: string }>(app, {
    method: 'GET',
    url: '/v1/tenants/:tenant/notices',
    operationId: 'listNotices',
    summary: 'List notices, newest first',
    tag: 'notices',
    auth: 'tenant',
    params: paramsSchema('tenant'),
    querystring: { type: 'object', additionalProperties: false, properties: pagingQuery },
    response: { 200: pageSchema(NoticeSchema) },
    handler: async (req) => {
      const page = await rt.engine.notices.list(req.params.tenant, parseCursor(req.query.cursor), req.query.limit);
      return { items: page.items.map(noticeView), next_cursor: page.nextCursor };
    },
  });
}
