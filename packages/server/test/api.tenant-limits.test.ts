// Per-tenant limits over HTTP (docs/rules.md#tenant-limits): set by the admin only, 429 with Retry-After for the rate
// and daily limits, 413 for the payload cap, 409 for the endpoint cap, usage, quota notices, a UTC midnight reset.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { VirtualClock } from '@hookline/core';
import { startReceiver, startTestServer, type TestReceiver, type TestServer, until } from './server-harness.ts';

const NOON = Date.parse('2026-03-02T12:00:00Z');
const MIDNIGHT = Date.parse('2026-03-03T00:00:00Z');
let t: TestServer;
let receiver: TestReceiver;
const clock = new VirtualClock(NOON);

before(async () => {
  receiver = await startReceiver();
  t = await startTestServer({ clock });
});
after(async () => {
  await t.close();
  await receiver.close();
});

const send = (ten: string, id: string, data: unknown = { id }) =>
  t.api('POST', `/v1/tenants/${ten}/events`, { body: { event_id: id, type: 'order.created', data } });

test('only the admin sets limits; a tenant key reads them and its usage', async () => {
  const ten = await t.tenant('Keyed');
  const key = (await t.api('POST', `/v1/tenants/${ten}/api-keys`, { body: { name: 'ci' } })).body.key;
  const own = await t.api('PATCH', `/v1/tenants/${ten}`, { token: key, body: { limits: { events_per_day: 1e9 } } });
  assert.equal(own.status, 403);
  assert.equal(own.body.error.code, 'forbidden');
  assert.equal((await t.api('PATCH', `/v1/tenants/${ten}`, { token: key, body: { name: 'Renamed' } })).status, 200);
  const set = await t.api('PATCH', `/v1/tenants/${ten}`, {
    body: { limits: { events_per_day: 10, events_per_s: 2.5 } },
  });
  assert.equal(set.status, 200);
  assert.deepEqual(set.body.limits, {
    events_per_s: 2.5,
    events_per_day: 10,
    max_endpoints: null,
    max_payload_bytes: null,
  });
  // A field left out stays; null clears it back to the configured default.
  const cleared = await t.api('PATCH', `/v1/tenants/${ten}`, { body: { limits: { events_per_s: null } } });
  assert.deepEqual(cleared.body.limits, {
    events_per_s: null,
    events_per_day: 10,
    max_endpoints: null,
    max_payload_bytes: null,
  });
  const bad = await t.api('PATCH', `/v1/tenants/${ten}`, { body: { limits: { events_per_day: -1 } } });
  assert.equal(bad.status, 400);
  const usage = await t.api('GET', `/v1/tenants/${ten}/usage`, { token: key });
  assert.equal(usage.status, 200);
  assert.deepEqual(
    [usage.body.day, usage.body.events_today, usage.body.events_per_day, usage.body.percent, usage.body.resets_at],
    ['2026-03-02', 0, 10, 0, '2026-03-03T00:00:00.000Z'],
  );
});

test('rate, daily quota, payload and endpoint caps answer their codes; replays pass; midnight resets', async () => {
  clock.set(NOON);
  const ten = await t.tenant('Capped');
  const limits = { events_per_s: 2, events_per_day: 5, max_endpoints: 1, max_payload_bytes: 200 };
  assert.equal((await t.api('PATCH', `/v1/tenants/${ten}`, { body: { limits } })).status, 200);
  const ep = await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: receiver.url } });
  assert.equal(ep.status, 201);
  const second = await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: receiver.url } });
  assert.equal(second.status, 409);
  assert.equal(second.body.error.code, 'endpoint_limit_reached');

  assert.equal((await send(ten, 'e1')).status, 202);
  assert.equal((await send(ten, 'e2')).status, 202);
  const fast = await send(ten, 'e3');
  assert.equal(fast.status, 429);
  assert.equal(fast.body.error.code, 'tenant_rate_limited');
  assert.equal(fast.headers.get('retry-after'), '1');
  assert.equal((await t.api('GET', `/v1/tenants/${ten}/events/e3`)).status, 404, 'a refused event is not stored');
  // A replay of an accepted event is answered as before, even with the bucket empty, and not counted.
  const replay = await send(ten, 'e1');
  assert.equal(replay.status, 202);
  assert.equal(replay.body.duplicate, true);

  clock.advance(1000);
  assert.equal((await send(ten, 'e3')).status, 202);
  const big = await send(ten, 'e-big', { blob: 'x'.repeat(300) });
  assert.equal(big.status, 413);
  assert.equal(big.body.error.code, 'payload_too_large');
  assert.match(big.body.error.message, /200 bytes/);
  assert.equal((await send(ten, 'e4')).status, 202); // 4 of 5: the 80 % notice
  clock.advance(1000);
  // A batch counts every item: e5 is the fifth of the day, e6 is past the quota and not stored.
  const batch = await t.api('POST', `/v1/tenants/${ten}/events/batch`, {
    body: { events: ['e5', 'e6'].map((id) => ({ event_id: id, type: 'order.created', data: {} })) },
  });
  assert.equal(batch.status, 202);
  assert.deepEqual([batch.body.accepted, batch.body.failed], [1, 1]);
  assert.equal(batch.body.results[1].error.code, 'tenant_quota_exceeded');
  // Every item refused by the quota: the whole batch is a 429 until the next UTC midnight.
  clock.advance(1000);
  const refused = await t.api('POST', `/v1/tenants/${ten}/events/batch`, {
    body: { events: [{ event_id: 'e7', type: 'order.created', data: {} }] },
  });
  assert.equal(refused.status, 429);
  assert.equal(refused.body.error.code, 'tenant_quota_exceeded');
  assert.equal(refused.headers.get('retry-after'), String((MIDNIGHT - clock.now()) / 1000));
  const single = await send(ten, 'e8');
  assert.equal(single.status, 429);
  assert.equal(single.body.error.code, 'tenant_quota_exceeded');
  assert.equal((await send(ten, 'e2')).body.duplicate, true, 'a replay at the quota is not refused');

  const usage = (await t.api('GET', `/v1/tenants/${ten}/usage`)).body;
  assert.deepEqual(
    [usage.events_today, usage.events_per_day, usage.percent, usage.endpoints, usage.max_endpoints],
    [5, 5, 100, 1, 1],
  );
  assert.deepEqual(usage.limits, limits);
  // The owners are told once at 80 % and once at 100 %.
  const notices = await until(
    () => t.api('GET', `/v1/tenants/${ten}/notices`),
    (r) => r.body.items.filter((n: { kind: string }) => n.kind.startsWith('quota.')).length >= 2,
  );
  const quota = notices.body.items.filter((n: { kind: string }) => n.kind.startsWith('quota.'));
  assert.deepEqual(quota.map((n: { kind: string }) => n.kind).sort(), ['quota.reached', 'quota.warning']);

  clock.set(MIDNIGHT);
  assert.equal((await send(ten, 'e8')).status, 202, 'the next UTC day counts from zero');
  const next = (await t.api('GET', `/v1/tenants/${ten}/usage`)).body;
  assert.deepEqual([next.day, next.events_today, next.percent], ['2026-03-03', 1, 20]);
});

test('the configured defaults apply to a tenant with no limits of its own', async () => {
  const s = await startTestServer({ env: { HOOKLINE_TENANT_EVENTS_PER_DAY: '1', HOOKLINE_TENANT_MAX_ENDPOINTS: '0' } });
  try {
    const ten = await s.tenant('Defaults');
    const body = (id: string) => ({ body: { event_id: id, type: 'order.created', data: {} } });
    assert.equal((await s.api('POST', `/v1/tenants/${ten}/events`, body('d1'))).status, 202);
    const over = await s.api('POST', `/v1/tenants/${ten}/events`, body('d2'));
    assert.equal(over.status, 429);
    assert.equal(over.body.error.code, 'tenant_quota_exceeded');
    const ep = await s.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: receiver.url } });
    assert.equal(ep.body.error?.code, 'endpoint_limit_reached');
    // The tenant's own limit wins over the default.
    await s.api('PATCH', `/v1/tenants/${ten}`, { body: { limits: { events_per_day: 2 } } });
    assert.equal((await s.api('POST', `/v1/tenants/${ten}/events`, body('d2'))).status, 202);
    const usage = (await s.api('GET', `/v1/tenants/${ten}/usage`)).body;
    assert.deepEqual([usage.events_today, usage.limits.events_per_day, usage.own_limits.events_per_day], [2, 2, 2]);
    assert.deepEqual([usage.limits.max_endpoints, usage.own_limits.max_endpoints], [0, null]);
  } finally {
    await s.close();
  }
});
