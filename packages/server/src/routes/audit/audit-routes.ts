// The audit log over HTTP (docs/audit.md): every tenant's entries for the admin (filterable by tenant), a tenant's own
// for its key, each as JSON pages or one NDJSON export, and the chain's verification (admin).
import type { AuditFilter, Page } from '@hookline/core';
import { type AuditEntry, fail } from '@hookline/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EXPORT_PAGE, sendNdjson, wantsNdjson } from '../../http/ndjson-export.ts';
import { parseTime } from '../../http/query.ts';
import { addRoute, pagingQuery, paramsSchema } from '../../http/route.ts';
import { pageSchema } from '../../http/views.ts';
import type { Runtime } from '../../runtime.ts';
import { AuditEntrySchema, AuditVerificationSchema, auditEntryView, auditVerificationView } from './audit-view.ts';

const tag = 'audit';

interface AuditQuery {
  limit: number;
  cursor?: string;
  action?: string;
  since?: string;
  until?: string;
  format?: 'json' | 'ndjson';
  tenant?: string;
}

const filterQuery = {
  ...pagingQuery,
  action: { type: 'string', maxLength: 64, description: 'Only entries of this action, e.g. endpoint.update' },
  since: { type: 'string', format: 'date-time', description: 'Only entries at or after this time' },
  until: { type: 'string', format: 'date-time', description: 'Only entries before this time' },
  format: {
    type: 'string',
    enum: ['json', 'ndjson'],
    description:
      'ndjson: every matching entry, one JSON object per line, streamed (also chosen by Accept: application/x-ndjson); limit and cursor are ignored.',
  },
} as const;

/** An audit cursor is the last entry's seq. */
function parseSeqCursor(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (!/^[1-9][0-9]{0,14}$/.test(value)) throw fail('invalid_cursor');
  return value;
}

function filterOf(q: AuditQuery, tenantId: string | undefined): AuditFilter {
  const f: AuditFilter = {};
  if (tenantId !== undefined) f.tenantId = tenantId;
  if (q.action !== undefined) f.action = q.action;
  const since = parseTime(q.since, 'query', '/since');
  const until = parseTime(q.until, 'query', '/until');
  if (since !== undefined) f.since = since;
  if (until !== undefined) f.until = until;
  return f;
}

export function auditRoutes(app: FastifyInstance, rt: Runtime): void {
  const { audit } = rt.engine;
  const answer = async (
    req: FastifyRequest<{ Querystring: AuditQuery }>,
    reply: FastifyReply,
    filter: AuditFilter,
  ): Promise<unknown> => {
    if (wantsNdjson(req, req.query.format))
      return sendNdjson(reply, (c): Promise<Page<AuditEntry>> => audit.list(filter, c, EXPORT_PAGE), auditEntryView);
    const page = await audit.list(filter, parseSeqCursor(req.query.cursor), req.query.limit);
    return { items: page.items.map(auditEntryView), next_cursor: page.nextCursor };
  };

  addRoute<Record<string, string>, AuditQuery>(app, {
    method: 'GET',
    url: '/v1/audit-log',
    operationId: 'listAuditLog',
    tag,
    auth: 'admin',
    summary: 'Every change made through the API, CLI or console, newest first (admin; all tenants or one)',
    querystring: {
      type: 'object',
      additionalProperties: false,
      properties: {
        ...filterQuery,
        tenant: { type: 'string', maxLength: 255, description: 'Only this tenant’s entries' },
      },
    },
    response: { 200: pageSchema(AuditEntrySchema) },
    handler: async (req, reply) => answer(req, reply, filterOf(req.query, req.query.tenant)),
  });

  addRoute<{ tenant: string }, AuditQuery>(app, {
    method: 'GET',
    url: '/v1/tenants/:tenant/audit-log',
    operationId: 'listTenantAuditLog',
    tag,
    auth: 'tenant',
    summary: "The tenant's audit log, newest first",
    params: paramsSchema('tenant'),
    querystring: { type: 'object', additionalProperties: false, properties: filterQuery },
    response: { 200: pageSchema(AuditEntrySchema) },
    handler: async (req, reply) => answer(req, reply, filterOf(req.query, req.params.tenant)),
  });

  addRoute(app, {
    method: 'GET',
    url: '/v1/audit-log/verify',
    operationId: 'verifyAuditLog',
    tag,
    auth: 'admin',
    summary: 'Walk the audit chain from its checkpoint: the first edited, inserted or deleted entry, or ok (admin)',
    response: { 200: AuditVerificationSchema },
    handler: async () => auditVerificationView(await audit.verify()),
  });
}
