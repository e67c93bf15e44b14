// The receiver doctor over HTTP (docs/rules.md#tool-doctor): the ugly cases against an endpoint's URL and secrets.
import { type DoctorContract, type Endpoint, fail, subscribes } from '@hookline/core';
import type { FastifyInstance } from 'fastify';
import type { EventTypeView } from '../../event-types/event-type-registry.ts';
import { addRoute, paramsSchema } from '../../http/route.ts';
import type { Runtime } from '../../runtime.ts';
import { DoctorReportSchema, doctorView } from './doctor-view.ts';

type DoctorBody = { type?: string; version?: string } | null | undefined;

export function endpointDoctorRoutes(app: FastifyInstance, rt: Runtime): void {
  addRoute<{ tenant: string; endpoint: string }, unknown, DoctorBody>(app, {
    method: 'POST',
    url: '/v1/tenants/:tenant/endpoints/:endpoint/doctor',
    operationId: 'doctorEndpoint',
    summary:
      'Check the receiver: signed ugly cases (duplicates, bad signatures, stale timestamps, bad JSON, …), graded',
    description:
      'Sends at most 30 requests within 60 s to the endpoint URL only (SSRF rules apply), marked X-Webhook-Doctor: 1 with event ids ' +
      'prefixed doctor_. The contract is the registered event type named by `type`, else the first registered type the endpoint ' +
      'subscribes to; its example is the data and its schema the required fields. Nothing is recorded; health is untouched. ' +
      '409 endpoint_paused for a paused endpoint.',
    tag: 'endpoints',
    auth: 'tenant',
    params: paramsSchema('tenant', 'endpoint'),
    body: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: {
        type: {
          type: 'string',
          minLength: 1,
          maxLength: 200,
          description: 'a registered event type (default: the first one the endpoint subscribes to)',
        },
        version: {
          type: 'string',
          minLength: 1,
          maxLength: 32,
          description: "the type's version (default: its latest)",
        },
      },
    },
    response: { 200: DoctorReportSchema },
    handler: async (req) => {
      const { tenant, endpoint } = req.params;
      // The contract is looked up once the endpoint is known, before the paused check: its errors come first.
      return doctorView(
        await rt.engine.doctor.run(tenant, endpoint, { contract: (ep) => contractFor(rt, ep, req.body ?? {}) }),
      );
    },
  });
}

/** The registered contract the doctor's events follow, or none (then case 6 is skipped). */
async function contractFor(
  rt: Runtime,
  ep: Endpoint,
  body: NonNullable<DoctorBody> | Record<string, never>,
): Promise<DoctorContract | undefined> {
  const requested = 'type' in body ? body.type : undefined;
  const version = 'version' in body ? body.version : undefined;
  let def: EventTypeView | null = null;
  if (requested !== undefined) {
    def = await rt.eventTypes.get(requested);
    if (!def) throw fail('event_type_not_found');
  } else {
    const registered = (await rt.eventTypes.list()).filter((t) => subscribes(ep.eventTypes, t.name));
    // A type the endpoint names exactly comes first, in its order; then wildcard matches by name.
    const exact = ep.eventTypes.map((name) => registered.find((t) => t.name === name)).find((t) => t !== undefined);
    def = exact ?? registered.sort((a, b) => a.name.localeCompare(b.name))[0] ?? null;
    if (!def) {
      if (version !== undefined) throw fail('invalid_request', { detail: 'version needs a type' });
      return undefined;
    }
  }
  const name = version ?? latestVersion(Object.keys(def.versions));
  const v = Object.hasOwn(def.versions, name) ? def.versions[name] : undefined;
  if (!v) throw fail('unknown_event_type', { type: `${def.name} version ${name}` });
  return { type: def.name, version: name, example: v.example, schema: v.schema };
}

function latestVersion(versions: string[]): string {
  return [...versions].sort((a, b) => b.localeCompare(a, 'en', { numeric: true }))[0];
}
