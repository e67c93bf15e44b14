// Svix event types = Hookline's event-type registry: list, create, get, update, patch, delete (archive); `schemas`
// by version are the registry's versioned JSON Schemas, enforced on messages like on Hookline's own events.
import { fail, SVIX_EVENT_TYPE_NAME } from '@hookline/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EventTypeDefinition, EventTypeView } from '../../event-types/event-type-registry.ts';
import type { Runtime } from '../../runtime.ts';
import { type P, requireAdmin } from './svix-context.ts';
import { answerOnce } from './svix-idempotency.ts';
import { FieldReader } from './svix-input.ts';
import { eventTypeOut, listOut } from './svix-view.ts';

interface EventTypeFields {
  name?: string;
  description?: string;
  schemas?: Record<string, unknown> | null;
  archived?: boolean;
  deprecated?: boolean;
  featureFlag?: string | null;
  groupName?: string | null;
}

function readEventType(body: unknown, requireName: boolean): EventTypeFields {
  const r = new FieldReader(body);
  const schemas = r.raw('schemas');
  if (schemas !== undefined && schemas !== null && (typeof schemas !== 'object' || Array.isArray(schemas)))
    r.stringMap('schemas');
  const out: EventTypeFields = {
    name: r.string('name', { required: requireName, pattern: SVIX_EVENT_TYPE_NAME }),
    description: r.string('description', { max: 4000 }),
    schemas: schemas as EventTypeFields['schemas'],
    archived: r.boolean('archived'),
    deprecated: r.boolean('deprecated'),
    featureFlag: r.nullableString('featureFlag', { max: 256 }),
    groupName: r.nullableString('groupName', { max: 256 }),
  };
  r.done();
  return out;
}

/** The registry definition after an edit: `cur` null for a new type; a patch keeps what the body leaves out. */
function definitionOf(cur: EventTypeView | null, f: EventTypeFields, replace: boolean): EventTypeDefinition {
  const schemas = f.schemas !== undefined ? f.schemas : replace || !cur ? null : undefined;
  const versions =
    schemas === undefined
      ? cur!.versions
      : schemas === null || Object.keys(schemas).length === 0
        ? { '1': { schema: true as const } }
        : Object.fromEntries(
            Object.entries(schemas).map(([v, s]) => [v, { schema: s as Record<string, unknown> | boolean }]),
          );
  const was = cur?.svix;
  const pick = <T>(given: T | undefined, old: T | undefined, reset: T): T =>
    given !== undefined ? given : replace || old === undefined ? reset : old;
  return {
    description: pick(f.description, cur?.description, ''),
    versions,
    ...(cur?.money !== undefined ? { money: cur.money } : {}),
    svix: {
      archived: pick(f.archived, was?.archived, false),
      deprecated: pick(f.deprecated, was?.deprecated, false),
      featureFlag: pick(f.featureFlag, was?.featureFlag, null),
      groupName: pick(f.groupName, was?.groupName, null),
    },
  };
}

export function svixEventTypeRoutes(app: FastifyInstance, rt: Runtime): void {
  const config = { auth: 'tenant' as const };
  const now = () => rt.clock.now();

  app.get('/api/v1/event-type', { config }, async (req) => {
    const q = req.query as Record<string, unknown>;
    const withArchived = q.include_archived === 'true';
    const all = (await rt.eventTypes.list())
      .filter((t) => withArchived || !t.svix?.archived)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return listOut(
      all.map((t) => {
        const out = eventTypeOut(t);
        return q.with_content === 'false' ? { ...out, schemas: null } : out;
      }),
      null,
    );
  });

  app.post('/api/v1/event-type', { config }, (req, reply) =>
    answerOnce(rt, req, reply, async () => {
      requireAdmin(req);
      const f = readEventType(req.body, true);
      if (await rt.eventTypes.get(f.name!)) throw fail('uid_taken', { uid: f.name!, what: 'event type' });
      return { status: 201, body: eventTypeOut(await rt.eventTypes.put(f.name!, definitionOf(null, f, true), now())) };
    }),
  );

  app.get<{ Params: P<'type'> }>('/api/v1/event-type/:type', { config }, async (req) => {
    const t = await rt.eventTypes.get(req.params.type);
    if (!t) throw fail('event_type_not_found');
    return eventTypeOut(t);
  });

  const edit = (replace: boolean) => async (req: FastifyRequest<{ Params: P<'type'> }>) => {
    requireAdmin(req);
    const f = readEventType(req.body, false);
    const cur = await rt.eventTypes.get(req.params.type);
    // Svix's PUT creates a missing type; its PATCH does not.
    if (!cur && !replace) throw fail('event_type_not_found');
    return eventTypeOut(await rt.eventTypes.put(req.params.type, definitionOf(cur, f, replace), now()));
  };
  app.put<{ Params: P<'type'> }>('/api/v1/event-type/:type', { config }, edit(true));
  app.patch<{ Params: P<'type'> }>('/api/v1/event-type/:type', { config }, edit(false));

  // Svix archives on delete (its `expunge` is not offered: Hookline's registry keeps every type it defined).
  app.delete<{ Params: P<'type'> }>('/api/v1/event-type/:type', { config }, async (req, reply) => {
    requireAdmin(req);
    const cur = await rt.eventTypes.get(req.params.type);
    if (!cur) throw fail('event_type_not_found');
    await rt.eventTypes.put(cur.name, definitionOf(cur, { archived: true }, false), now());
    return reply.code(204).send();
  });
}
