// The domain's lists are spelled once, in @hookline/core: the API document's enums, the client's types and the
// event-type name rule are held to them, and no list is spelled out again in the server's source.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { components } from '@hookline/client';
import {
  ATTEMPT_TRIGGERS,
  type AttemptTrigger,
  BREAKER_SCOPES,
  BREAKER_STATES,
  DELIVERY_STATUSES,
  type DeliveryStatus,
  ENDPOINT_STATUSES,
  ENVIRONMENTS,
  type EndpointStatus,
  type Environment,
  EVENT_TYPE_NAME,
  EVENT_TYPE_SUBSCRIPTION,
  ORDERING_ON_FAILURE,
  ORDERINGS,
  OUTCOME_CLASSES,
  type OutcomeClass,
  PAUSE_REASONS,
  QUEUED_STATUSES,
  SCHEMES,
  SETTABLE_ENDPOINT_STATUSES,
  SIGNINGS,
  TERMINAL_STATUSES,
} from '@hookline/core';
import { SIM_NEXT_STATUSES } from '@hookline/core/simulation';
import { OPENAPI_PATH } from '../scripts/generate-openapi.ts';

const SRC = join(import.meta.dirname, '..', 'src');

/** The core lists a schema or a command may name, by the name a failure shows. */
const LISTS: Readonly<Record<string, readonly string[]>> = {
  DELIVERY_STATUSES,
  QUEUED_STATUSES,
  TERMINAL_STATUSES,
  ENDPOINT_STATUSES,
  SETTABLE_ENDPOINT_STATUSES,
  PAUSE_REASONS,
  SCHEMES,
  SIGNINGS,
  ORDERINGS,
  ORDERING_ON_FAILURE,
  ATTEMPT_TRIGGERS,
  OUTCOME_CLASSES,
  ENVIRONMENTS,
  BREAKER_SCOPES,
  BREAKER_STATES,
  SIM_NEXT_STATUSES,
};

/** Each enum of the API document (`null` left out) with where it is. */
function enumsOf(node: unknown, at = ''): Array<{ at: string; values: unknown[] }> {
  if (Array.isArray(node)) return node.flatMap((v, i) => enumsOf(v, `${at}/${i}`));
  if (node === null || typeof node !== 'object') return [];
  const own = Array.isArray((node as { enum?: unknown }).enum)
    ? [{ at, values: ((node as { enum: unknown[] }).enum ?? []).filter((v) => v !== null) }]
    : [];
  return [...own, ...Object.entries(node).flatMap(([k, v]) => enumsOf(v, `${at}/${k}`))];
}

/** The core list an enum spells, if its values are all from one: the list it must then equal (or a named subset). */
function drifted(values: readonly unknown[]): string | null {
  if (values.length < 2) return null; // one value is a choice (`state: closed`), not a list
  const owners = Object.entries(LISTS).filter(([, list]) => values.every((v) => list.includes(v as string)));
  if (owners.length === 0) return null;
  const exact = owners.find(([, list]) => list.length === values.length && list.every((v, i) => values[i] === v));
  return exact ? null : `not equal to ${owners.map(([name]) => name).join(' or ')}`;
}

test('vocabulary: every enum of openapi.json that spells a core list is that list, in its order', () => {
  const doc = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8'));
  const enums = enumsOf(doc);
  assert.ok(enums.length > 40, `read ${enums.length} enums: the walk is broken`);
  const problems = enums.flatMap(({ at, values }) => {
    const why = drifted(values);
    return why === null ? [] : [`${at} ${JSON.stringify(values)}: ${why}`];
  });
  assert.deepEqual(problems, []);
  const at = (path: string) => enums.find((e) => e.at === path)?.values;
  assert.deepEqual(at('/components/schemas/Delivery/properties/status'), [...DELIVERY_STATUSES]);
  assert.deepEqual(at('/components/schemas/Endpoint/properties/status'), [...ENDPOINT_STATUSES]);
  assert.deepEqual(at('/components/schemas/UpdateEndpointRequest/properties/status'), [...SETTABLE_ENDPOINT_STATUSES]);
  assert.deepEqual(at('/components/schemas/Attempt/properties/outcome'), [...OUTCOME_CLASSES]);
  assert.deepEqual(at('/components/schemas/Attempt/properties/trigger'), [...ATTEMPT_TRIGGERS]);
  assert.deepEqual(doc.components.schemas.QueueDepth.required, [...QUEUED_STATUSES]);
});

test('vocabulary: a planted enum that misses a value or reorders one is named', () => {
  assert.equal(drifted(['pending', 'delivering', 'held', 'succeeded', 'failed']), 'not equal to DELIVERY_STATUSES');
  assert.match(drifted(['live', 'test']) ?? '', /ENVIRONMENTS/);
  assert.equal(drifted(['active', 'paused']), null);
  assert.equal(drifted(['json', 'ndjson']), null);
});

test('vocabulary: the event type name rule of openapi.json is core’s', () => {
  const schemas = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')).components.schemas;
  const type = schemas.EventInput.properties.type;
  assert.deepEqual([type.pattern, type.maxLength], [EVENT_TYPE_NAME.pattern, EVENT_TYPE_NAME.maxLength]);
  const items = schemas.CreateEndpointRequest.properties.event_types.items;
  assert.deepEqual(
    [items.pattern, items.maxLength],
    [EVENT_TYPE_SUBSCRIPTION.pattern, EVENT_TYPE_SUBSCRIPTION.maxLength],
  );
  assert.ok(new RegExp(EVENT_TYPE_NAME.pattern).test('invoice.paid'));
  assert.ok(!new RegExp(EVENT_TYPE_NAME.pattern).test('invoice..paid'));
  assert.ok(new RegExp(EVENT_TYPE_SUBSCRIPTION.pattern).test('invoice.*'));
});

/** Array literals of two or more quoted strings in a source text. */
function stringArrays(text: string): string[][] {
  return [...text.matchAll(/\[\s*'[^'\n]*'(?:\s*,\s*'[^'\n]*')+\s*,?\s*\]/g)].map((m) =>
    [...m[0].matchAll(/'([^'\n]*)'/g)].map((v) => v[1] as string),
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')
        ? [join(dir, e.name)]
        : [],
  );
}

test('vocabulary: the server’s source spells no core list out again (it names the list)', () => {
  const files = sourceFiles(SRC);
  assert.ok(files.length > 100, `read ${files.length} files: the walk is broken`);
  const respelled = files.flatMap((f) =>
    stringArrays(readFileSync(f, 'utf8'))
      .filter((values) => Object.values(LISTS).some((list) => values.every((v) => list.includes(v))))
      .map((values) => `${f.slice(SRC.length + 1)}: ${JSON.stringify(values)}`),
  );
  assert.deepEqual(respelled, []);
  assert.deepEqual(stringArrays("const S = ['pending', 'held'];\nconst N = ['json', 'x'];"), [
    ['pending', 'held'],
    ['json', 'x'],
  ]);
});

// The client's generated types are core's (a compile-time check: `npx tsc` fails when they part).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Schemas = components['schemas'];
const sameTypes: [
  Same<Schemas['Delivery']['status'], DeliveryStatus>,
  Same<Schemas['Endpoint']['status'], EndpointStatus>,
  Same<Schemas['Attempt']['outcome'], OutcomeClass>,
  Same<Schemas['Attempt']['trigger'], AttemptTrigger>,
  Same<Schemas['Tenant']['environment'], Environment>,
] = [true, true, true, true, true];

test('vocabulary: the client’s types are core’s', () => {
  assert.deepEqual(sameTypes, [true, true, true, true, true]);
});
