// Retry now over real HTTP (docs/rules.md#retry-now): a pending delivery, or an endpoint's, becomes due now and is sent
// as its next attempt; a finished one points to replay, a later one of an ordering key names its head. The server runs
// on a VirtualClock that never moves, so a delivery's next rung never comes by itself: only a retry sends it again.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { VirtualClock } from '@hookline/core';
import { startReceiver, startTestServer, type TestServer, until } from './server-harness.ts';

let t: TestServer;
let failing = true;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let ten: string;
const clock = new VirtualClock(Date.UTC(2026, 0, 5, 12));

before(async () => {
  t = await startTestServer({ clock });
  receiver = await startReceiver(() => (failing ? 503 : 200));
});
after(async () => {
  await receiver.close();
  await t.close();
});

/** A fresh tenant (events fan out to its endpoints only) with one endpoint to the receiver. */
async function endpoint(body: Record<string, unknown> = {}): Promise<string> {
  ten = await t.tenant();
  return (await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: receiver.url, ...body } })).body.id;
}

/** Sends one event to `ep` and waits for its first attempt to fail: pending, its next rung in the (frozen) future. */
async function pendingDelivery(eventId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await t.api('POST', `/v1/tenants/${ten}/events`, {
    body: { event_id: eventId, type: 'order.created', data: { id: eventId }, ...extra },
  });
  assert.equal(r.status, 202, JSON.stringify(r.body));
  const id = r.body.deliveries[0].id;
  await until(
    () => t.api('GET', `/v1/tenants/${ten}/deliveries/${id}`),
    (d) => d.body.attempts.length === 1 && d.body.status === 'pending',
  );
  return id;
}

test('a pending delivery is attempted at once, as its next attempt; a finished one answers 409 naming replay', async () => {
  failing = true;
  await endpoint();
  const id = await pendingDelivery('r1');
  const before = await t.api('GET', `/v1/tenants/${ten}/deliveries/${id}`);
  assert.ok(Date.parse(before.body.next_attempt_at) > clock.now(), 'its next rung is later');
  failing = false;
  const r = await t.api('POST', `/v1/tenants/${ten}/deliveries/${id}/retry`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(Date.parse(r.body.next_attempt_at), clock.now());
  const done = await until(
    () => t.api('GET', `/v1/tenants/${ten}/deliveries/${id}`),
    (d) => d.body.status === 'succeeded',
  );
  assert.deepEqual(
    done.body.attempts.map((a: { n: number; trigger: string }) => [a.n, a.trigger]),
    [
      [1, 'scheduled'],
      [2, 'scheduled'],
    ],
    'the second attempt on its ladder, not a replay',
  );
  const again = await t.api('POST', `/v1/tenants/${ten}/deliveries/${id}/retry`);
  assert.equal(again.status, 409);
  assert.equal(again.body.error.code, 'delivery_finished');
  assert.match(again.body.error.message, /succeeded.*replay/);
  assert.equal((await t.api('POST', `/v1/tenants/${ten}/deliveries/dlv_nope/retry`)).status, 404);
});

test("an endpoint's retry moves every pending delivery and answers the count; a paused endpoint is 409", async () => {
  failing = true;
  const ep = await endpoint();
  const ids = [await pendingDelivery('e1'), await pendingDelivery('e2')];
  failing = false;
  const r = await t.api('POST', `/v1/tenants/${ten}/endpoints/${ep}/retry`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.deepEqual(r.body, { moved: 2 });
  for (const id of ids)
    await until(
      () => t.api('GET', `/v1/tenants/${ten}/deliveries/${id}`),
      (d) => d.body.status === 'succeeded',
    );
  assert.deepEqual((await t.api('POST', `/v1/tenants/${ten}/endpoints/${ep}/retry`)).body, { moved: 0 });
  await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${ep}`, { body: { status: 'paused' } });
  const paused = await t.api('POST', `/v1/tenants/${ten}/endpoints/${ep}/retry`);
  assert.equal(paused.status, 409);
  assert.equal(paused.body.error.code, 'endpoint_paused');
});

test('of an ordering key only the head moves: a later delivery answers 409 naming the head', async () => {
  failing = true;
  const ep = await endpoint({ ordering: 'key' });
  const head = await pendingDelivery('k1', { ordering_key: 'order-9' });
  const later = await t.api('POST', `/v1/tenants/${ten}/events`, {
    body: { event_id: 'k2', type: 'order.created', data: {}, ordering_key: 'order-9' },
  });
  const second = later.body.deliveries[0].id;
  const r = await t.api('POST', `/v1/tenants/${ten}/deliveries/${second}/retry`);
  assert.equal(r.status, 409);
  assert.equal(r.body.error.code, 'delivery_not_head');
  assert.ok(r.body.error.message.includes(head), r.body.error.message);
  assert.deepEqual((await t.api('POST', `/v1/tenants/${ten}/endpoints/${ep}/retry`)).body, { moved: 1 });
});
