// Svix applications = Hookline tenants: list, create (get-or-create by uid), get, update, patch, delete by id or uid.
import type { Tenant, TenantLabels } from '@hookline/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Runtime } from '../../runtime.ts';
import { appFor, type P, paging, requireAdmin } from './svix-context.ts';
import { answerOnce } from './svix-idempotency.ts';
import { FieldReader, UID_PATTERN } from './svix-input.ts';
import { applicationOut, listOut } from './svix-view.ts';

interface AppFields {
  name?: string;
  uid?: string | null;
  metadata?: Record<string, string> | null;
  rateLimit?: number | null;
}

function readApp(body: unknown, requireName: boolean): AppFields {
  const r = new FieldReader(body);
  const out: AppFields = {
    name: r.string('name', { required: requireName, max: 200 }),
    uid: r.nullableString('uid', { pattern: UID_PATTERN }),
    metadata: r.stringMap('metadata'),
    rateLimit: r.integer('rateLimit', { min: 1, max: 65_535 }),
  };
  r.done();
  return out;
}

/** The labels after an edit: `replace` (PUT) resets what the body leaves out; a patch keeps it. */
function labelsOf(t: Tenant, f: AppFields, replace: boolean): TenantLabels {
  const keep = <T>(given: T | undefined, cur: T, reset: T): T => (given !== undefined ? given : replace ? reset : cur);
  return {
    uid: keep(f.uid, t.uid ?? null, null),
    metadata: keep(f.metadata, t.metadata ?? {}, {}) ?? {},
    payloadFormat: t.payloadFormat ?? 'envelope',
    appRateLimit: keep(f.rateLimit, t.appRateLimit ?? null, null),
  };
}

export function svixApplicationRoutes(app: FastifyInstance, rt: Runtime): void {
  const { engine } = rt;
  const config = { auth: 'tenant' as const };

  app.get('/api/v1/app', { config }, async (req) => {
    const { limit, cursor } = paging(req.query as Record<string, unknown>);
    const p = req.principal;
    // A tenant key sees its own application only.
    if (p?.kind === 'tenant') return listOut([applicationOut(await engine.tenants.get(p.tenantId))], null);
    const order = (req.query as Record<string, unknown>).order;
    const page = await engine.tenants.list(cursor, limit, order === 'descending' ? { newestFirst: true } : {});
    return listOut(page.items.map(applicationOut), page.nextCursor);
  });

  app.post('/api/v1/app', { config }, (req, reply) =>
    answerOnce(rt, req, reply, async () => {
      const f = readApp(req.body, true);
      const getIfExists = (req.query as Record<string, unknown>).get_if_exists === 'true';
      if (getIfExists && f.uid) {
        const existing = await engine.tenants.findByIdOrUid(f.uid);
        if (existing) return { status: 200, body: applicationOut(await appFor(rt, req, existing.id)) };
      }
      requireAdmin(req);
      // Applications made here send messages as Svix does: the payload itself (docs/svix-compatibility.md#raw-payload).
      const t = await engine.tenants.create(
        {
          name: f.name!,
          uid: f.uid ?? null,
          metadata: f.metadata ?? {},
          app_rate_limit: f.rateLimit ?? null,
          payload_format: 'raw',
        },
        req.actor,
      );
      return { status: 201, body: applicationOut(t) };
    }),
  );

  app.get<{ Params: P<'app'> }>('/api/v1/app/:app', { config }, async (req) =>
    applicationOut(await appFor(rt, req, req.params.app)),
  );

  const edit = (replace: boolean) => async (req: FastifyRequest<{ Params: P<'app'> }>) => {
    const f = readApp(req.body, replace);
    const t = await appFor(rt, req, req.params.app);
    if (f.name !== undefined) await engine.tenants.update(t.id, { name: f.name }, req.actor);
    return applicationOut(await engine.tenants.setLabels(t.id, labelsOf(t, f, replace), req.actor));
  };
  app.put<{ Params: P<'app'> }>('/api/v1/app/:app', { config }, edit(true));
  app.patch<{ Params: P<'app'> }>('/api/v1/app/:app', { config }, edit(false));

  app.delete<{ Params: P<'app'> }>('/api/v1/app/:app', { config }, async (req, reply) => {
    const t = await appFor(rt, req, req.params.app);
    requireAdmin(req);
    await engine.tenants.delete(t.id, req.actor);
    return reply.code(204).send();
  });
}
