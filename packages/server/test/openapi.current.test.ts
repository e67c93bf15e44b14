// The committed openapi.json is what the route schemas generate (run `npm run openapi -w @hookline/server` to update).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { generateOpenApi, OPENAPI_PATH } from '../src/openapi/generate-openapi.ts';

test('packages/server/openapi.json is current', async () => {
  const generated = await generateOpenApi();
  const committed = readFileSync(OPENAPI_PATH, 'utf8');
  assert.ok(committed === generated, 'openapi.json is stale: run `npm run openapi -w @hookline/server` and commit the result');
});

test('the document covers every route with a schema and marks itself generated', async () => {
  const doc = JSON.parse(await generateOpenApi());
  assert.equal(doc.openapi, '3.1.0');
  assert.match(doc['x-generated'], /do not edit/);
  const ops = Object.entries(doc.paths as Record<string, Record<string, { operationId: string; responses: object }>>)
    .flatMap(([path, methods]) => Object.entries(methods).map(([m, op]) => ({ path, m, op })));
  const ids = ops.map((o) => o.op.operationId);
  assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  for (const expected of ['createTenant', 'createEndpoint', 'sendEvent', 'sendEvents', 'listDeliveries', 'replayWindow', 'getReplay', 'putEventType', 'metrics', 'listNotices', 'resetTenantBreaker']) {
    assert.ok(ids.includes(expected), expected);
  }
  for (const { op } of ops) assert.ok('4XX' in op.responses && '5XX' in op.responses);
  assert.ok(doc.paths['/v1/tenants/{tenant}/endpoints/{endpoint}'].patch.parameters.some((p: { name: string }) => p.name === 'endpoint'));
});
