// The committed openapi.json is what the route schemas generate (run `npm run openapi -w @hookline/server` to update).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { generateOpenApi, OPENAPI_PATH } from '../scripts/generate-openapi.ts';

test('packages/server/openapi.json is current', async () => {
  const generated = await generateOpenApi();
  const committed = readFileSync(OPENAPI_PATH, 'utf8');
  assert.ok(
    committed === generated,
    'openapi.json is stale: run `npm run openapi -w @hookline/server` and commit the result',
  );
});

test('the document covers every route with a schema and marks itself generated', async () => {
  const doc = JSON.parse(await generateOpenApi());
  assert.equal(doc.openapi, '3.1.0');
  assert.match(doc['x-generated'], /do not edit/);
  const ops = Object.entries(
    doc.paths as Record<string, Record<string, { operationId: string; responses: object }>>,
  ).flatMap(([path, methods]) => Object.entries(methods).map(([m, op]) => ({ path, m, op })));
  const ids = ops.map((o) => o.op.operationId);
  assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  for (const expected of [
    'createTenant',
    'createEndpoint',
    'sendEvent',
    'sendEvents',
    'listDeliveries',
    'replayWindow',
    'getReplay',
    'putEventType',
    'metrics',
    'listNotices',
    'resetTenantBreaker',
  ]) {
    assert.ok(ids.includes(expected), expected);
  }
  for (const { op } of ops) assert.ok('4XX' in op.responses && '5XX' in op.responses);
  assert.ok(
    doc.paths['/v1/tenants/{tenant}/endpoints/{endpoint}'].patch.parameters.some(
      (p: { name: string }) => p.name === 'endpoint',
    ),
  );
});

test('bodies are named component schemas: every JSON body is a $ref, every $ref resolves, the error body is one Error', async () => {
  const doc = JSON.parse(await generateOpenApi());
  const schemas = doc.components.schemas as Record<string, Record<string, unknown>>;
  for (const name of [
    'Tenant',
    'ApiKey',
    'Endpoint',
    'Event',
    'Delivery',
    'DeliveryDetail',
    'Attempt',
    'Replay',
    'Notice',
    'Breaker',
    'Error',
    'ErrorDetail',
    'EventInput',
  ]) {
    assert.equal(schemas[name]?.type, 'object', name);
  }
  assert.deepEqual(Object.keys(schemas), Object.keys(schemas).sort(), 'components are sorted');
  const refs: string[] = [];
  (function walk(v: unknown): void {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) k === '$ref' ? refs.push(x as string) : walk(x);
  })(doc);
  for (const ref of refs) assert.ok(ref.startsWith('#/components/schemas/') && ref.slice(21) in schemas, ref);
  for (const name of Object.keys(schemas)) assert.ok(refs.includes(`#/components/schemas/${name}`), `${name} is used`);
  for (const [path, methods] of Object.entries(
    doc.paths as Record<
      string,
      Record<
        string,
        {
          requestBody?: { content: Record<string, { schema: object }> };
          responses: Record<string, { content?: Record<string, { schema: object }> }>;
        }
      >
    >,
  )) {
    for (const [m, op] of Object.entries(methods)) {
      const bodies = [
        op.requestBody?.content['application/json'],
        ...Object.values(op.responses).map((r) => r.content?.['application/json']),
      ];
      for (const b of bodies) if (b) assert.deepEqual(Object.keys(b.schema), ['$ref'], `${m} ${path}`);
      assert.deepEqual(
        op.responses['4XX'].content?.['application/json'].schema,
        { $ref: '#/components/schemas/Error' },
        `${m} ${path}`,
      );
    }
  }
  // The Delivery inside a page, an event's answer and a detail is the one component, not a copy.
  assert.deepEqual((schemas.DeliveryListItemPage.properties as { items: { items: object } }).items.items, {
    $ref: '#/components/schemas/DeliveryListItem',
  });
  assert.deepEqual((schemas.DeliveryListItem.allOf as object[])[0], { $ref: '#/components/schemas/Delivery' });
  assert.deepEqual((schemas.DeliveryDetail.properties as { attempts: { items: object } }).attempts.items, {
    $ref: '#/components/schemas/Attempt',
  });
});
