// Payload filters, custom headers and catch-up on reactivation over real HTTP, against a loopback receiver.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startReceiver, startTestServer, type TestServer, until } from './server-harness.ts';

let t: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let ten: string;
const WAIT = { timeoutMs: 60_000 };

before(async () => {
  t = await startTestServer();
  receiver = await startReceiver();
  ten = await t.tenant();
});
after(async () => {
  await receiver.close();
  await t.close();
});

const idsAt = (path: string) =>
  receiver.received
    .filter((r) => r.url === path)
    .map((r) => JSON.parse(r.body.toString()).event_id as string)
    .sort();

test('payload_filter and headers: saved, shown, applied at fan-out and on the wire; bad ones refused with their codes', async () => {
  const url = `${receiver.origin}/filtered`;
  const payload_filter = {
    all: [
      { path: 'data.status', equals: 'paid' },
      { path: 'data.amount', gt: 100 },
    ],
  };
  const created = await t.api('POST', `/v1/tenants/${ten}/endpoints`, {
    body: { url, payload_filter, headers: { 'X-Tenant-Ref': 'acme', 'X-Api-Key': 'k-123' } },
  });
  assert.equal(created.status, 201);
  assert.deepEqual(created.body.payload_filter, payload_filter);
  assert.deepEqual(created.body.headers, { 'X-Tenant-Ref': 'acme', 'X-Api-Key': 'k-123' });
  assert.equal(created.body.paused_at, null);
  const ep = created.body.id;
  for (const [id, data] of [
    ['yes', { status: 'paid', amount: 500 }],
    ['cheap', { status: 'paid', amount: 5 }],
    ['unpaid', { status: 'open', amount: 500 }],
  ] as const) {
    assert.equal(
      (await t.api('POST', `/v1/tenants/${ten}/events`, { body: { event_id: id, type: 'order.updated', data } }))
        .status,
      202,
    );
  }
  const got = await until(
    () => idsAt('/filtered'),
    (ids) => ids.length >= 1,
    WAIT,
  );
  assert.deepEqual(got, ['yes']);
  const req = receiver.received.find((r) => r.url === '/filtered')!;
  assert.deepEqual([req.headers['x-tenant-ref'], req.headers['x-api-key']], ['acme', 'k-123']);
  const deliveries = await t.api('GET', `/v1/tenants/${ten}/deliveries?endpoint_id=${ep}`);
  assert.equal(deliveries.body.items.length, 1, 'the filtered-out events have no delivery');
  const detail = await until(
    () => t.api('GET', `/v1/tenants/${ten}/deliveries/${deliveries.body.items[0].id}`),
    (d) => d.body.attempts.length > 0,
    WAIT,
  );
  const recorded = detail.body.attempts[0].request_headers;
  assert.deepEqual([recorded['X-Tenant-Ref'], recorded['X-Api-Key']], ['acme', '[redacted]']);

  const bad = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${ep}`, {
    body: { payload_filter: { any: [{ path: 'data.amount', gte: 'lots' }] } },
  });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'invalid_filter');
  assert.match(bad.body.error.message, /\/any\/0\/gte/);
  assert.equal(bad.body.error.details[0].path, '/payload_filter/any/0/gte');
  const outside = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${ep}`, {
    body: { payload_filter: { path: 'amount', gt: 1 } },
  });
  assert.equal(outside.body.error.code, 'invalid_filter');
  for (const [headers, code] of [
    [{ 'Content-Type': 'text/plain' }, 'invalid_header'],
    [{ 'X-Webhook-Signature': 'v1=forged' }, 'invalid_header'],
    [{ Connection: 'close' }, 'invalid_header'],
    [{ 'X-A': 'a\r\nX-B: b' }, 'invalid_header'],
    [{ 'Bad Name': 'v' }, 'invalid_header'],
    [Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v'])), 'too_many_headers'],
  ] as const) {
    const r = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${ep}`, { body: { headers } });
    assert.equal(r.status, 400, JSON.stringify(headers));
    assert.equal(r.body.error.code, code);
  }
  const cleared = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${ep}`, {
    body: { payload_filter: null, headers: {} },
  });
  assert.deepEqual([cleared.body.payload_filter, cleared.body.headers], [null, {}]);
});

test('PATCH status=active with catch_up: replays what failed or was skipped since the pause and reports the replay id', async () => {
  const url = `${receiver.origin}/catch-up`;
  const ep = (await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url, event_types: ['cu.*'] } })).body.id;
  const notPaused = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${ep}`, {
    body: { status: 'active', catch_up: true },
  });
  assert.deepEqual([notPaused.status, notPaused.body.error.code], [409, 'endpoint_not_paused']);
  const noStatus = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${ep}`, { body: { catch_up: true } });
  assert.deepEqual([noStatus.status, noStatus.body.error.code], [400, 'catch_up_needs_reactivation']);

  const paused = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${ep}`, { body: { status: 'paused' } });
  assert.equal(paused.body.status, 'paused');
  assert.ok(paused.body.paused_at);
  for (const id of ['cu-1', 'cu-2', 'cu-3'])
    await t.api('POST', `/v1/tenants/${ten}/events`, { body: { event_id: id, type: 'cu.x', data: {} } });
  const back = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${ep}`, {
    body: { status: 'active', catch_up: true },
  });
  assert.equal(back.status, 200);
  assert.deepEqual([back.body.status, back.body.paused_at], ['active', null]);
  assert.match(back.body.catch_up.replay_id, /^rpl_/);
  assert.deepEqual(
    [back.body.catch_up.replay.selected, back.body.catch_up.replay.include_skipped, back.body.catch_up.replay.since],
    [3, true, paused.body.paused_at],
  );
  const done = await until(
    () => t.api('GET', `/v1/tenants/${ten}/replays/${back.body.catch_up.replay_id}`),
    (x) => x.body.done === true,
    WAIT,
  );
  assert.deepEqual([done.body.attempted, done.body.succeeded], [3, 3]);
  assert.deepEqual(idsAt('/catch-up'), ['cu-1', 'cu-2', 'cu-3']);
  const plain = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${ep}`, {
    body: { description: 'no catch-up here' },
  });
  assert.equal(plain.body.catch_up, undefined);
});
