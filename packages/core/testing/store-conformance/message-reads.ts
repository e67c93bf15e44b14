// Store conformance, the message reads of the Svix-compatible API: a message's destinations and attempts, an
// endpoint's attempts and messages, each paged where the API pages, a delivery in flight reading `delivering`, and
// the payload format an event was accepted with read back.
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/store.ts';
import {
  attemptOf,
  endpoint,
  MIN,
  newEvent,
  record,
  S,
  secret,
  setup,
  T0,
  tenant,
  type WithStore,
} from './fixtures.ts';

/**
 * ten_A: evt_000001 to ep_1 and ep_2, evt_000002 to ep_1 (raw payload, labelled), evt_000003 to ep_1, a minute
 * apart. ep_1's delivery of evt_000001 failed once, then succeeded; ep_2's succeeded; evt_000002's delivery is in
 * flight (claimed by w2), evt_000003's pending. ten_B holds an event of its own.
 */
async function history(store: Store): Promise<void> {
  await setup(store);
  const raw = newEvent('ten_A', 2, ['ep_1'], { at: T0 + MIN, body: Buffer.from('{"x":1}') });
  raw.event.payloadFormat = 'raw';
  await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1', 'ep_2']), raw]);
  await store.svix.putMessageLabels('evt_000002', 'ten_A', { channels: ['eu'], tags: ['t1'] });
  const claim = (now: number, limit: number, workerId = 'w') =>
    store.queue.claimDue({ now, limit, leaseUntil: now + MIN, workerId, saturatedEndpoints: [] });
  // evt_000002's delivery is due a minute later: the claim at T0 takes evt_000001's two.
  const first = await claim(T0, 5);
  assert.deepEqual(first.map((c) => c.delivery.id).sort(), ['dlv_000001_0', 'dlv_000001_1']);
  await store.queue.recordAttempts(
    [
      record(attemptOf('dlv_000001_0', 'ten_A', 'ep_1', 1, T0, 'delivery_failure'), 'w', {
        status: 'pending',
        nextAttemptAt: T0 + 2 * S,
        ladder: 'fast',
      }),
      record(attemptOf('dlv_000001_1', 'ten_A', 'ep_2', 1, T0, 'success'), 'w', { status: 'succeeded' }),
    ],
    T0,
  );
  const [again] = await claim(T0 + 2 * S, 1);
  assert.equal(again.delivery.id, 'dlv_000001_0');
  await store.queue.recordAttempts(
    [record(attemptOf('dlv_000001_0', 'ten_A', 'ep_1', 2, T0 + 2 * S, 'success'), 'w', { status: 'succeeded' })],
    T0 + 2 * S,
  );
  await store.events.acceptEvents([newEvent('ten_A', 3, ['ep_1'], { at: T0 + 2 * MIN })]);
  await store.catalog.createTenant(tenant('ten_B'));
  await store.catalog.createEndpoint(endpoint('ep_9', 'ten_B'), secret('sec_9', 'ep_9'));
  await store.events.acceptEvents([newEvent('ten_B', 9, ['ep_9'])]);
  // The oldest due delivery of ten_A, evt_000002's, goes in flight (ten_B's endpoint is left out of this claim).
  const [inFlight] = await store.queue.claimDue({
    now: T0 + 2 * MIN,
    limit: 1,
    leaseUntil: T0 + 3 * MIN,
    workerId: 'w2',
    saturatedEndpoints: ['ep_9'],
  });
  assert.equal(inFlight.delivery.id, 'dlv_000002_0');
}

export function messageReadsConformance(withStore: WithStore): void {
  withStore(
    "a message's destinations: its deliveries oldest first, each with its endpoint and state",
    async (store) => {
      await history(store);
      const d = await store.svix.messageDestinations('ten_A', 'evt_000001');
      assert.deepEqual(
        d.map((m) => [m.deliveryId, m.endpoint.id, m.endpoint.url, m.status, m.nextAttemptAt]),
        [
          ['dlv_000001_0', 'ep_1', 'https://example.test/ep_1', 'succeeded', null],
          ['dlv_000001_1', 'ep_2', 'https://example.test/ep_2', 'succeeded', null],
        ],
      );
      // A delivery in flight reads delivering, wherever its lease is kept.
      assert.deepEqual(
        (await store.svix.messageDestinations('ten_A', 'evt_000002')).map((m) => [m.deliveryId, m.status]),
        [['dlv_000002_0', 'delivering']],
      );
      assert.deepEqual(
        (await store.svix.messageDestinations('ten_A', 'evt_000003')).map((m) => [m.status, m.nextAttemptAt]),
        [['pending', T0 + 2 * MIN]],
      );
      // Another tenant's message is not there.
      assert.deepEqual(await store.svix.messageDestinations('ten_B', 'evt_000001'), []);
    },
  );

  withStore("a message's attempts: newest delivery first, each one's attempts newest first", async (store) => {
    await history(store);
    const all = await store.svix.messageAttempts('ten_A', 'evt_000001', null);
    assert.deepEqual(
      all.map((a) => [a.attempt.deliveryId, a.attempt.n, a.attempt.outcome, a.eventPk, a.url]),
      [
        ['dlv_000001_1', 1, 'success', 'evt_000001', 'https://example.test/ep_2'],
        ['dlv_000001_0', 2, 'success', 'evt_000001', 'https://example.test/ep_1'],
        ['dlv_000001_0', 1, 'delivery_failure', 'evt_000001', 'https://example.test/ep_1'],
      ],
    );
    assert.deepEqual(all[2].attempt, attemptOf('dlv_000001_0', 'ten_A', 'ep_1', 1, T0, 'delivery_failure'));
    assert.deepEqual(
      (await store.svix.messageAttempts('ten_A', 'evt_000001', 'ep_2')).map((a) => a.attempt.deliveryId),
      ['dlv_000001_1'],
    );
    assert.deepEqual(await store.svix.messageAttempts('ten_A', 'evt_000002', null), []);
    assert.deepEqual(await store.svix.messageAttempts('ten_B', 'evt_000001', null), []);
  });

  withStore("an endpoint's attempts: a page of its deliveries newest first, each with its attempts", async (store) => {
    await history(store);
    const ids = (p: { items: Array<{ id: string; attempts: Array<{ attempt: { n: number } }> }> }) =>
      p.items.map((d) => [d.id, d.attempts.map((a) => a.attempt.n)]);
    const first = await store.svix.endpointAttempts('ten_A', 'ep_1', {}, null, 2);
    // Deliveries not attempted yet keep their place in the page (the API pages by delivery).
    assert.deepEqual(ids(first), [
      ['dlv_000003_0', []],
      ['dlv_000002_0', []],
    ]);
    assert.equal(first.nextCursor, 'dlv_000002_0');
    const second = await store.svix.endpointAttempts('ten_A', 'ep_1', {}, first.nextCursor, 2);
    assert.deepEqual([ids(second), second.nextCursor], [[['dlv_000001_0', [2, 1]]], null]);
    assert.equal(second.items[0].attempts[0].url, 'https://example.test/ep_1');
    assert.equal(second.items[0].attempts[0].eventPk, 'evt_000001');
    // The window is on the deliveries' creation: since ≤ created_at ≤ until.
    const windowed = await store.svix.endpointAttempts('ten_A', 'ep_1', { since: T0 + MIN, until: T0 + MIN }, null, 5);
    assert.deepEqual(ids(windowed), [['dlv_000002_0', []]]);
    assert.deepEqual((await store.svix.endpointAttempts('ten_B', 'ep_1', {}, null, 5)).items, []);
  });

  withStore("an endpoint's messages: a page of its deliveries newest first, each with its message", async (store) => {
    await history(store);
    const first = await store.svix.endpointMessages('ten_A', 'ep_1', {}, null, 2);
    assert.deepEqual(
      first.items.map((m) => [m.id, m.deliveryId, m.event.id, m.status, m.channels, m.tags]),
      [
        ['dlv_000003_0', 'dlv_000003_0', 'evt_000003', 'pending', null, null],
        ['dlv_000002_0', 'dlv_000002_0', 'evt_000002', 'delivering', ['eu'], ['t1']],
      ],
    );
    assert.equal(first.nextCursor, 'dlv_000002_0');
    // The payload format the event was accepted with, and its body as sent.
    assert.deepEqual(
      first.items.map((m) => [m.event.payloadFormat, m.event.body.toString()]),
      [
        ['envelope', JSON.stringify({ n: 3 })],
        ['raw', '{"x":1}'],
      ],
    );
    assert.equal(first.items[0].nextAttemptAt, T0 + 2 * MIN);
    const second = await store.svix.endpointMessages('ten_A', 'ep_1', {}, first.nextCursor, 2);
    assert.deepEqual(
      [second.items.map((m) => [m.id, m.status]), second.nextCursor],
      [[['dlv_000001_0', 'succeeded']], null],
    );
    assert.deepEqual(
      (await store.svix.endpointMessages('ten_A', 'ep_1', { until: T0 }, null, 5)).items.map((m) => m.id),
      ['dlv_000001_0'],
    );
    assert.deepEqual((await store.svix.endpointMessages('ten_B', 'ep_1', {}, null, 5)).items, []);
  });

  withStore('the payload format an event was accepted with reads back with it', async (store) => {
    await history(store);
    assert.equal((await store.svix.getEventByPk('ten_A', 'evt_000002'))?.event.payloadFormat, 'raw');
    assert.equal((await store.svix.getEventByPk('ten_A', 'evt_000001'))?.event.payloadFormat, 'envelope');
    assert.equal((await store.events.getEvent('ten_A', 'e-2'))?.event.payloadFormat, 'raw');
  });
}
