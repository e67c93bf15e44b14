// GET /v1/stats (every tenant, admin) and GET /v1/tenants/:tenant/stats: queue depth, oldest due age, success rates.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startReceiver, startTestServer, type TestServer, until } from './server-harness.ts';

let t: TestServer;
let ok: Awaited<ReturnType<typeof startReceiver>>;
let refusing: Awaited<ReturnType<typeof startReceiver>>;

before(async () => {
  t = await startTestServer();
  ok = await startReceiver(() => 200);
  refusing = await startReceiver(() => 400);
});
after(async () => {
  await ok.close();
  await refusing.close();
  await t.close();
});

test('per endpoint: its queue, oldest due age and success rate over deliveries that ended in the window', async () => {
  const ten = await t.tenant();
  const good = (await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: ok.url, policy: 'strict' } })).body
    .id;
  const bad = (await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: refusing.url, policy: 'strict' } }))
    .body.id;
  for (const id of ['s1', 's2', 's3'])
    assert.equal(
      (await t.api('POST', `/v1/tenants/${ten}/events`, { body: { event_id: id, type: 'order.created', data: {} } }))
        .status,
      202,
    );
  const stats = await until(
    () => t.api('GET', `/v1/tenants/${ten}/stats`),
    (r) => r.body.endpoints?.every((e: { succeeded: number; failed: number }) => e.succeeded + e.failed === 3),
  );
  assert.equal(stats.status, 200);
  assert.deepEqual(stats.body.queue, { pending: 0, delivering: 0, held: 0 });
  assert.equal(stats.body.oldest_due_age_ms, null);
  const byId = Object.fromEntries(stats.body.endpoints.map((e: { endpoint_id: string }) => [e.endpoint_id, e]));
  assert.deepEqual(
    [byId[good].succeeded, byId[good].failed, byId[good].success_rate, byId[good].endpoint_status],
    [3, 0, 1, 'active'],
  );
  assert.deepEqual(
    [byId[bad].succeeded, byId[bad].failed, byId[bad].success_rate, byId[bad].endpoint_status],
    [0, 3, 0, 'degraded'],
  );
  // Every attempt counted with its duration: one each to the healthy endpoint, at least one per failed delivery.
  assert.equal(byId[good].attempts, 3);
  assert.ok(byId[bad].attempts >= 3);
  for (const e of [byId[good], byId[bad]]) assert.ok(typeof e.avg_latency_ms === 'number' && e.avg_latency_ms >= 0);
  const since = new Date(Date.now() + 1000 * 60).toISOString();
  const future = await t.api('GET', `/v1/tenants/${ten}/stats?since=${encodeURIComponent(since)}`);
  assert.deepEqual([future.status, future.body.error.code], [400, 'invalid_request']);
  const later = await t.api('GET', `/v1/tenants/${ten}/stats?since=${encodeURIComponent(new Date().toISOString())}`);
  assert.equal(later.body.endpoints[0].success_rate, null, 'nothing ended since now');
  const garbage = await t.api('GET', `/v1/tenants/${ten}/stats?since=yesterday`);
  assert.deepEqual([garbage.status, garbage.body.error.details?.[0]?.path], [400, '/since']);
});

test('GET /v1/stats: the whole queue for the operator; a tenant key is refused', async () => {
  const all = await t.api('GET', '/v1/stats');
  assert.equal(all.status, 200);
  assert.deepEqual(Object.keys(all.body.queue).sort(), ['delivering', 'held', 'pending']);
  for (const n of Object.values(all.body.queue)) assert.equal(typeof n, 'number');
  const ten = await t.tenant();
  const key = (await t.api('POST', `/v1/tenants/${ten}/api-keys`, { body: { name: 'k' } })).body.key;
  const refused = await t.api('GET', '/v1/stats', { token: key });
  assert.deepEqual([refused.status, refused.body.error.code], [403, 'forbidden']);
  assert.equal((await t.api('GET', `/v1/tenants/${ten}/stats`, { token: key })).status, 200, 'its own tenant stats');
});
