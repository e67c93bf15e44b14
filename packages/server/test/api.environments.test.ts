// Test and live tenants over real HTTP (docs/rules.md#environments): fixed at creation, keys that say so, filters, and
// every attempt record, attempt log line, delivery and notice naming the environment.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { generateApiKey } from '../src/http/auth.ts';
import { startReceiver, startTestServer, type TestServer, until } from './server-harness.ts';

let t: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

before(async () => {
  t = await startTestServer();
  // 400: the strict policy fails a client error at once, so a delivery fails (and is noticed) on its first attempt.
  receiver = await startReceiver(() => 400);
});
after(async () => {
  await receiver.close();
  await t.close();
});

async function createTenant(body: Record<string, unknown>): Promise<{ id: string; environment: string }> {
  const r = await t.api('POST', '/v1/tenants', { body });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

test('a tenant is live unless created test; its API keys are hk_test_… or hk_live_… and open only it', async () => {
  const live = await createTenant({ name: 'Live Co' });
  const sandbox = await createTenant({ name: 'Sandbox Co', environment: 'test' });
  assert.equal(live.environment, 'live');
  assert.equal(sandbox.environment, 'test');
  assert.equal((await t.api('GET', `/v1/tenants/${sandbox.id}`)).body.environment, 'test');

  const testKey = await t.api('POST', `/v1/tenants/${sandbox.id}/api-keys`, { body: { name: 'ci' } });
  assert.equal(testKey.status, 201);
  assert.match(testKey.body.key, /^hk_test_[A-Za-z0-9_-]{32}$/);
  assert.match(testKey.body.prefix, /^hk_test_/);
  const liveKey = await t.api('POST', `/v1/tenants/${live.id}/api-keys`, { body: {} });
  assert.match(liveKey.body.key, /^hk_live_/);

  assert.equal(
    (await t.api('GET', `/v1/tenants/${sandbox.id}`, { token: testKey.body.key })).status,
    200,
    'a test key opens its test tenant',
  );
  assert.equal(
    (await t.api('GET', `/v1/tenants/${live.id}`, { token: testKey.body.key })).status,
    404,
    'and no other tenant',
  );

  // A key whose prefix names the other environment is refused even with a valid hash on record (planted: the API never mints one).
  const crossed = generateApiKey('live');
  await t.server.runtime.store.catalog.createApiKey({
    id: 'key_crossed',
    tenantId: sandbox.id,
    name: 'crossed',
    prefix: crossed.prefix,
    hash: crossed.hash,
    createdAt: Date.now(),
    lastUsedAt: null,
    revokedAt: null,
  });
  const refused = await t.api('GET', `/v1/tenants/${sandbox.id}`, { token: crossed.key });
  assert.equal(refused.status, 401);
  assert.equal(refused.body.error.code, 'unauthorized');
});

test('the environment is fixed: PATCH to the other one is 409 environment_immutable, to its own is accepted; an unknown one is 400', async () => {
  const sandbox = await createTenant({ name: 'Fixed Co', environment: 'test' });
  const moved = await t.api('PATCH', `/v1/tenants/${sandbox.id}`, { body: { environment: 'live', name: 'Moved' } });
  assert.equal(moved.status, 409);
  assert.equal(moved.body.error.code, 'environment_immutable');
  assert.match(moved.body.error.message, /this tenant is test/);
  const after = await t.api('GET', `/v1/tenants/${sandbox.id}`);
  assert.deepEqual(
    [after.body.environment, after.body.name],
    ['test', 'Fixed Co'],
    'nothing of the refused PATCH was applied',
  );

  const same = await t.api('PATCH', `/v1/tenants/${sandbox.id}`, { body: { environment: 'test', name: 'Still Test' } });
  assert.equal(same.status, 200);
  assert.deepEqual([same.body.environment, same.body.name], ['test', 'Still Test']);

  const staging = await t.api('POST', '/v1/tenants', { body: { name: 'Staging', environment: 'staging' } });
  assert.equal(staging.status, 400);
  assert.equal(staging.body.error.details[0].path, '/environment');
});

test('GET /v1/tenants?environment= lists only that environment', async () => {
  const a = await createTenant({ name: 'Filter A', environment: 'test' });
  const b = await createTenant({ name: 'Filter B' });
  const tests = await t.api('GET', '/v1/tenants?environment=test&limit=200');
  assert.equal(tests.status, 200);
  assert.ok(tests.body.items.length > 0);
  assert.ok(tests.body.items.every((x: { environment: string }) => x.environment === 'test'));
  assert.ok(tests.body.items.some((x: { id: string }) => x.id === a.id));
  assert.ok(!tests.body.items.some((x: { id: string }) => x.id === b.id));
  const lives = await t.api('GET', '/v1/tenants?environment=live&limit=200');
  assert.ok(lives.body.items.some((x: { id: string }) => x.id === b.id));
  assert.ok(lives.body.items.every((x: { environment: string }) => x.environment === 'live'));
  const bad = await t.api('GET', '/v1/tenants?environment=prod');
  assert.equal(bad.status, 400);
});

test("a test tenant's deliveries, attempts, attempt log lines and notices name the test environment", async () => {
  const sandbox = await createTenant({ name: 'Logged Co', environment: 'test' });
  const key = (await t.api('POST', `/v1/tenants/${sandbox.id}/api-keys`, { body: {} })).body.key as string;
  const ep = await t.api('POST', `/v1/tenants/${sandbox.id}/endpoints`, {
    body: { url: receiver.url, policy: 'strict' },
    token: key,
  });
  assert.equal(ep.status, 201, JSON.stringify(ep.body));
  const sent = await t.api('POST', `/v1/tenants/${sandbox.id}/events`, {
    body: { event_id: 'env-1', type: 'order.created', data: {} },
    token: key,
  });
  assert.equal(sent.status, 202);
  assert.equal(sent.body.deliveries[0].environment, 'test', 'the ingest answer names it');
  const id = sent.body.deliveries[0].id as string;

  const detail = await until(
    () => t.api('GET', `/v1/tenants/${sandbox.id}/deliveries/${id}`, { token: key }),
    (d) => d.body.status === 'failed',
  );
  assert.equal(detail.body.environment, 'test');
  assert.deepEqual(
    detail.body.attempts.map((a: { environment: string }) => a.environment),
    ['test'],
    'the attempt record',
  );
  const list = await t.api('GET', `/v1/tenants/${sandbox.id}/deliveries`, { token: key });
  assert.deepEqual(
    list.body.items.map((d: { environment: string }) => d.environment),
    ['test'],
  );
  const event = await t.api('GET', `/v1/tenants/${sandbox.id}/events/env-1`, { token: key });
  assert.equal(event.body.deliveries[0].environment, 'test');

  // The attempt line is logged by an observer after the record's commit: the status can be read a moment before it.
  const line = await until(
    async () => t.logs.find((l) => l.msg === 'attempt' && l.delivery_id === id),
    (l) => l !== undefined,
  );
  assert.ok(line, 'the attempt was logged');
  assert.equal(line.environment, 'test', 'the attempt log line names the environment');
  assert.equal(line.tenant_id, sandbox.id);

  // A delivery that fails for good is told in its endpoint's summary (docs/rules.md#notifications).
  const notices = await until(
    () => t.api('GET', `/v1/tenants/${sandbox.id}/notices`, { token: key }),
    (r) => r.body.items.some((n: { kind: string }) => n.kind === 'deliveries.failed'),
  );
  const failed = notices.body.items.find((n: { kind: string }) => n.kind === 'deliveries.failed');
  assert.equal(failed.environment, 'test', 'the notice names it');
  assert.equal(failed.subject_id, ep.body.id);
  assert.deepEqual(
    failed.data.deliveries.map((d: { delivery_id: string }) => d.delivery_id),
    [id],
  );

  // A live tenant beside it: its lines say live.
  const live = await createTenant({ name: 'Live Logged Co' });
  await t.api('POST', `/v1/tenants/${live.id}/endpoints`, { body: { url: receiver.url, policy: 'strict' } });
  const liveSent = await t.api('POST', `/v1/tenants/${live.id}/events`, { body: { type: 'order.created', data: {} } });
  const liveId = liveSent.body.deliveries[0].id as string;
  await until(
    () => t.api('GET', `/v1/tenants/${live.id}/deliveries/${liveId}`),
    (d) => d.body.status === 'failed',
  );
  const liveLine = await until(
    async () => t.logs.find((l) => l.msg === 'attempt' && l.delivery_id === liveId),
    (l) => l !== undefined,
  );
  assert.equal(liveLine?.environment, 'live');
});
