// Ordered delivery per key on the engine (docs/rules.md#ordered-delivery), over real HTTP on loopback with a virtual
// clock: a stuck key does not hold back the others, on_failure block and dismiss, replay in place, pause, bad keys.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isHooklineError } from '../src/errors.ts';
import { MIN, type Received, S, settle, startReceiver, testEngine } from '../testing/index.ts';

const parse = (r: Received) =>
  JSON.parse(r.body.toString('utf8')) as { event_id: string; data: { key: string; n: number } };

/** Per key, the n of every request that reached the receiver, in arrival order. */
function byKey(received: Received[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const r of received) {
    const { data } = parse(r);
    out.set(data.key, [...(out.get(data.key) ?? []), data.n]);
  }
  return out;
}

async function rejects(p: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(p, (err) => isHooklineError(err) && err.code === code);
}

test("one key failing beside 100 healthy keys: the healthy ones are all delivered in order while the stuck key's head retries and its later events wait unattempted", async (t) => {
  const rx = await startReceiver((_n, r) => (parse(r).data.key === 'stuck' ? 500 : 200));
  const h = await testEngine();
  t.after(async () => {
    await h.close();
    await rx.close();
  });
  const { endpoint } = await h.engine.endpoints.create(h.tenantId, {
    url: rx.url,
    policy: 'brief',
    ordering: 'key',
    max_concurrency: 20,
  });
  const events = [];
  for (let n = 1; n <= 3; n++) {
    events.push({ event_id: `stuck-${n}`, type: 'thing.changed', ordering_key: 'stuck', data: { key: 'stuck', n } });
    for (let k = 0; k < 100; k++)
      events.push({ event_id: `k${k}-${n}`, type: 'thing.changed', ordering_key: `k${k}`, data: { key: `k${k}`, n } });
  }
  for (const r of await h.engine.events.acceptMany(h.tenantId, events)) assert.ok(!(r instanceof Error), String(r));
  const t0 = h.clock.now();
  // brief: attempts at 0, +30 s, +5 min, +30 min. Two minutes in, the stuck head has had two attempts.
  await settle(h.engine, h.clock, { until: t0 + 2 * MIN });
  const seen = byKey(rx.received);
  for (let k = 0; k < 100; k++) assert.deepEqual(seen.get(`k${k}`), [1, 2, 3], `key k${k}`);
  assert.deepEqual(seen.get('stuck'), [1, 1], 'only the stuck head, retried on its ladder');
  const stuck = await Promise.all(
    [1, 2, 3].map(async (n) => (await h.store.events.getEvent(h.tenantId, `stuck-${n}`))!.deliveries[0]),
  );
  assert.deepEqual(
    stuck.map((d) => [d.status, d.attemptCount, d.orderingSeq]),
    [
      ['pending', 2, 1],
      ['pending', 0, 2],
      ['pending', 0, 3],
    ],
  );
  const stats = await h.engine.stats.tenant(h.tenantId);
  assert.equal(stats.endpoints.find((e) => e.endpointId === endpoint.id)?.succeeded, 300);

  // To the end: the head fails after its fourth attempt (on_failure continue), then each later one runs its own ladder,
  // strictly one after the other: 1 ×4, 2 ×4, 3 ×4, never interleaved.
  await settle(h.engine, h.clock);
  assert.deepEqual(byKey(rx.received).get('stuck'), [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
  const attempts = await h.store.reporting.listAttempts(stuck[0].id);
  assert.deepEqual(
    attempts.map((a) => a.startedAt - t0),
    [0, 30 * S, 30 * S + 5 * MIN, 30 * S + 35 * MIN],
    'the head kept its ladder',
  );
});

test('on_failure block: a failed head holds its key until dismissed; keyless events and other keys go on; a replay is sent in its place', async (t) => {
  let failFirst = true;
  const rx = await startReceiver((_n, r) =>
    parse(r).data.key === 'k' && parse(r).data.n === 1 && failFirst ? 503 : 200,
  );
  const h = await testEngine();
  t.after(async () => {
    await h.close();
    await rx.close();
  });
  const { endpoint } = await h.engine.endpoints.create(h.tenantId, {
    url: rx.url,
    policy: 'brief',
    ordering: 'key',
    on_failure: 'block',
  });
  assert.equal(endpoint.orderingOnFailure, 'block');
  const send = (key: string | null, n: number) =>
    h.engine.events.accept(h.tenantId, {
      event_id: `${key ?? 'none'}-${n}`,
      type: 'thing.changed',
      ...(key ? { ordering_key: key } : {}),
      data: { key: key ?? 'none', n },
    });
  const [k1, k2, k3] = [await send('k', 1), await send('k', 2), await send('k', 3)];
  await send('other', 1);
  await send(null, 1);
  await send(null, 2);
  await settle(h.engine, h.clock);
  const first = await h.store.reporting.getDelivery(h.tenantId, k1.deliveries[0].id);
  assert.equal(first?.status, 'failed');
  assert.deepEqual(byKey(rx.received).get('k'), [1, 1, 1, 1]);
  assert.deepEqual(byKey(rx.received).get('other'), [1]);
  assert.deepEqual(byKey(rx.received).get('none'), [1, 2]);
  assert.equal(
    (await h.store.reporting.getDelivery(h.tenantId, k2.deliveries[0].id))?.status,
    'pending',
    'held behind the failed head',
  );

  // Only a failed delivery that holds its key can be dismissed.
  await rejects(h.engine.deliveries.dismiss(h.tenantId, k2.deliveries[0].id), 'delivery_not_dismissable');
  await rejects(h.engine.deliveries.dismiss(h.tenantId, 'dlv_nope'), 'delivery_not_found');
  // A failed head replayed goes first again, before the key's waiting ones; this time it succeeds and frees the key.
  failFirst = false;
  await h.engine.replays.delivery(h.tenantId, k1.deliveries[0].id);
  await settle(h.engine, h.clock);
  assert.deepEqual(byKey(rx.received).get('k'), [1, 1, 1, 1, 1, 2, 3]);
  for (const d of [k1, k2, k3])
    assert.equal((await h.store.reporting.getDelivery(h.tenantId, d.deliveries[0].id))?.status, 'succeeded');
});

test('on_failure block: dismiss lets the key go on; the dismissed delivery stays failed and replayable; continue endpoints and keyless deliveries refuse dismiss', async (t) => {
  const rx = await startReceiver((_n, r) => (parse(r).data.n === 1 ? 500 : 200));
  const h = await testEngine();
  t.after(async () => {
    await h.close();
    await rx.close();
  });
  const { endpoint } = await h.engine.endpoints.create(h.tenantId, {
    url: rx.url,
    policy: 'strict',
    ordering: 'key',
    on_failure: 'block',
  });
  const a1 = await h.engine.events.accept(h.tenantId, {
    event_id: 'a-1',
    type: 'thing.changed',
    ordering_key: 'a',
    data: { key: 'a', n: 1 },
  });
  const a2 = await h.engine.events.accept(h.tenantId, {
    event_id: 'a-2',
    type: 'thing.changed',
    ordering_key: 'a',
    data: { key: 'a', n: 2 },
  });
  const loose = await h.engine.events.accept(h.tenantId, {
    event_id: 'loose-1',
    type: 'thing.changed',
    data: { key: 'loose', n: 1 },
  });
  await settle(h.engine, h.clock);
  assert.equal((await h.store.reporting.getDelivery(h.tenantId, a2.deliveries[0].id))?.status, 'pending');
  await rejects(h.engine.deliveries.dismiss(h.tenantId, loose.deliveries[0].id), 'delivery_not_dismissable');
  const dismissed = await h.engine.deliveries.dismiss(h.tenantId, a1.deliveries[0].id);
  assert.equal(dismissed.status, 'failed');
  assert.equal(dismissed.dismissedAt, h.clock.now());
  await rejects(h.engine.deliveries.dismiss(h.tenantId, a1.deliveries[0].id), 'delivery_not_dismissable');
  await settle(h.engine, h.clock);
  assert.equal((await h.store.reporting.getDelivery(h.tenantId, a2.deliveries[0].id))?.status, 'succeeded');
  // Switched to continue, a failed delivery holds nothing, so there is nothing to dismiss.
  await h.engine.endpoints.update(h.tenantId, endpoint.id, { on_failure: 'continue' });
  const b1 = await h.engine.events.accept(h.tenantId, {
    event_id: 'b-1',
    type: 'thing.changed',
    ordering_key: 'b',
    data: { key: 'b', n: 1 },
  });
  await settle(h.engine, h.clock);
  assert.equal((await h.store.reporting.getDelivery(h.tenantId, b1.deliveries[0].id))?.status, 'failed');
  await rejects(h.engine.deliveries.dismiss(h.tenantId, b1.deliveries[0].id), 'delivery_not_dismissable');
  // The dismissed one is still the dead letter's, and a replay sends it.
  await h.engine.replays.delivery(h.tenantId, a1.deliveries[0].id);
  const before = rx.received.length;
  await settle(h.engine, h.clock);
  assert.equal(rx.received.length, before + 1);
});

test("a paused endpoint fails a key's queue as today; after reactivation a window replay sends it in key order", async (t) => {
  let down = true;
  const rx = await startReceiver(() => (down ? 503 : 200));
  const h = await testEngine();
  t.after(async () => {
    await h.close();
    await rx.close();
  });
  const { endpoint } = await h.engine.endpoints.create(h.tenantId, {
    url: rx.url,
    policy: 'standard',
    ordering: 'key',
    on_failure: 'block',
  });
  for (let n = 1; n <= 4; n++)
    await h.engine.events.accept(h.tenantId, {
      event_id: `p-${n}`,
      type: 'thing.changed',
      ordering_key: 'p',
      data: { key: 'p', n },
    });
  await settle(h.engine, h.clock, { until: h.clock.now() + MIN });
  assert.deepEqual(byKey(rx.received).get('p'), [1, 1], 'the head retries, the rest wait');
  await h.engine.endpoints.update(h.tenantId, endpoint.id, { status: 'paused' });
  // Paused, every key is free: the whole queue is taken and fails as endpoint_paused, nothing is sent (as unordered).
  await settle(h.engine, h.clock);
  assert.deepEqual(byKey(rx.received).get('p'), [1, 1]);
  const all = (await h.store.reporting.listDeliveries({ tenantId: h.tenantId }, null, 10)).items;
  assert.deepEqual(
    all.map((d) => [d.status, d.terminalReason]),
    Array(4).fill(['failed', 'endpoint_paused']),
  );
  down = false;
  await h.engine.endpoints.update(h.tenantId, endpoint.id, { status: 'active' });
  const replay = await h.engine.replays.window(h.tenantId, endpoint.id);
  assert.equal(replay.selected, 4);
  await settle(h.engine, h.clock);
  assert.deepEqual(byKey(rx.received).get('p'), [1, 1, 1, 2, 3, 4]);
});

test("ordering_key: at most 256 bytes of UTF-8 (400 ordering_key_too_long); part of the event's identity; not in the envelope", async (t) => {
  const rx = await startReceiver();
  const h = await testEngine();
  t.after(async () => {
    await h.close();
    await rx.close();
  });
  await h.engine.endpoints.create(h.tenantId, { url: rx.url, ordering: 'key' });
  const key256 = 'é'.repeat(128); // 256 bytes
  const ok = await h.engine.events.accept(h.tenantId, { event_id: 'e1', type: 't.x', ordering_key: key256, data: {} });
  assert.equal(ok.event.orderingKey, key256);
  assert.equal(ok.deliveries[0].orderingKey, key256);
  await assert.rejects(
    h.engine.events.accept(h.tenantId, { event_id: 'e2', type: 't.x', ordering_key: `${key256}a`, data: {} }),
    (err) =>
      isHooklineError(err) &&
      err.code === 'ordering_key_too_long' &&
      err.status === 400 &&
      /ordering_key/.test(err.message),
  );
  // The same event_id and body with another key is another event: a conflict; with the same key, a duplicate.
  assert.equal(
    (await h.engine.events.accept(h.tenantId, { event_id: 'e1', type: 't.x', ordering_key: key256, data: {} })).kind,
    'existing',
  );
  await rejects(
    h.engine.events.accept(h.tenantId, { event_id: 'e1', type: 't.x', ordering_key: 'other', data: {} }),
    'event_conflict',
  );
  await rejects(h.engine.events.accept(h.tenantId, { event_id: 'e1', type: 't.x', data: {} }), 'event_conflict');
  await settle(h.engine, h.clock);
  assert.deepEqual(Object.keys(JSON.parse(rx.received[0].body.toString('utf8'))), [
    'event_id',
    'type',
    'version',
    'occurred_at',
    'data',
  ]);
});
