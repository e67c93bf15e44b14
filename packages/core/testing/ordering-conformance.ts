// Ordered delivery per key (docs/rules.md#ordered-delivery) as every Store must hold it: the claim, the sequence,
// dismiss and replay. store.sqlite.test.ts and store.postgres.test.ts run it with their factory.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { NewEvent } from '../src/store/store.ts';
import {
  attempt,
  claim,
  event,
  FREE,
  failFor,
  finish,
  ORD,
  replayRow,
  type StoreFactory,
  setup,
  succeed,
  T0,
  TEN,
} from './ordering-fixtures.ts';

export function orderingConformance(
  name: string,
  factory: StoreFactory,
  options: { skip?: string | boolean } = {},
): void {
  describe(`ordered delivery conformance: ${name}`, { skip: options.skip ?? false }, () => {
    test('keyed deliveries are numbered per key and endpoint in accept order; unordered endpoints and keyless events get none', async (t) => {
      const store = await setup(factory, t);
      const [a, b, c, d] = await store.events.acceptEvents([
        event(1, 'k1', [ORD, FREE]),
        event(2, 'k2', [ORD]),
        event(3, 'k1', [ORD, FREE]),
        event(4, null, [ORD]),
      ]);
      assert.equal(a.kind, 'created');
      if (a.kind !== 'created' || b.kind !== 'created' || c.kind !== 'created' || d.kind !== 'created') return;
      assert.deepEqual(
        a.deliveries.map((x) => [x.endpointId, x.orderingKey, x.orderingSeq]),
        [
          ['ep_ord', 'k1', 1],
          ['ep_free', null, null],
        ],
      );
      assert.deepEqual(
        b.deliveries.map((x) => x.orderingSeq),
        [1],
      );
      assert.deepEqual(
        c.deliveries.map((x) => [x.orderingKey, x.orderingSeq]),
        [
          ['k1', 2],
          [null, null],
        ],
      );
      // Behind an unfinished one of its key, a delivery waits without a due time; the head and keyless ones are due.
      assert.deepEqual(
        [a, b, c, d].map((r) => r.deliveries[0].nextAttemptAt),
        [T0, T0, null, T0],
      );
      assert.deepEqual(
        d.deliveries.map((x) => [x.orderingKey, x.orderingSeq]),
        [[null, null]],
      );
      // The next batch continues the key's numbers, and the stored rows say the same.
      const [e] = await store.events.acceptEvents([event(5, 'k1', [ORD])]);
      assert.equal(e.kind === 'created' && e.deliveries[0].orderingSeq, 3);
      const read = await store.events.getEvent(TEN, 'e-3');
      assert.equal(read?.event.orderingKey, 'k1');
      assert.deepEqual(
        read?.deliveries.map((x) => [x.endpointId, x.orderingKey, x.orderingSeq, x.dismissedAt]).sort(),
        [
          ['ep_free', null, null, null],
          ['ep_ord', 'k1', 2, null],
        ],
      );
    });

    test('the claim takes only the head of each key; other keys, unordered endpoints and keyless events are not held back', async (t) => {
      const store = await setup(factory, t);
      await store.events.acceptEvents([
        event(1, 'k1', [ORD, FREE]),
        event(2, 'k1', [ORD, FREE]),
        event(3, 'k2', [ORD]),
        event(4, 'k1', [ORD]),
        event(5, null, [ORD]),
        event(6, null, [ORD]),
      ]);
      assert.deepEqual(await claim(store), [
        'dlv_000001_ep_free',
        'dlv_000001_ep_ord',
        'dlv_000002_ep_free',
        'dlv_000003_ep_ord',
        'dlv_000005_ep_ord',
        'dlv_000006_ep_ord',
      ]);
      // The head is in flight: nothing more of k1, even for another worker.
      assert.deepEqual(await claim(store, 'w2'), []);
      await succeed(store, 'dlv_000001_ep_ord');
      assert.equal(
        (await store.reporting.getDelivery(TEN, 'dlv_000002_ep_ord'))?.nextAttemptAt,
        T0 + 2000,
        'due once its head ended',
      );
      assert.equal((await store.reporting.getDelivery(TEN, 'dlv_000004_ep_ord'))?.nextAttemptAt, null, 'still waiting');
      assert.deepEqual(await claim(store, 'w2'), ['dlv_000002_ep_ord']);
      await succeed(store, 'dlv_000002_ep_ord', 'ep_ord', 'w2');
      assert.deepEqual(await claim(store), ['dlv_000004_ep_ord']);
    });

    test('a head waiting for its retry, or held by a breaker, holds its key; a later delivery due earlier still waits', async (t) => {
      const store = await setup(factory, t);
      await store.events.acceptEvents([event(1, 'k1', [ORD]), event(2, 'k1', [ORD]), event(3, 'k2', [ORD])]);
      assert.deepEqual(await claim(store), ['dlv_000001_ep_ord', 'dlv_000003_ep_ord']);
      const at = T0 + 2000;
      await store.queue.recordAttempts(
        [
          finish(attempt({ id: 'dlv_000001_ep_ord', endpointId: 'ep_ord' }, 1, at, 'delivery_failure'), 'w1', {
            status: 'pending',
            nextAttemptAt: at + 60_000,
            ladder: 'fast',
          }),
        ],
        at,
      );
      // Far past the second one's due time, but before the head's retry: nothing of k1. The scheduler's next look is
      // the head's retry, not the waiting one's due time (k2's delivery is still leased).
      assert.deepEqual(await claim(store, 'w1', at + 30_000), []);
      assert.equal(await store.queue.nextDueAt(), at + 60_000);
      assert.deepEqual(await claim(store, 'w1', at + 60_000), ['dlv_000001_ep_ord']);
      await store.queue.holdDeliveries(['dlv_000001_ep_ord'], 'w1', at + 120_000, at + 60_000);
      assert.deepEqual(await claim(store, 'w1', at + 90_000), []);
      assert.deepEqual(await claim(store, 'w1', at + 120_000), ['dlv_000001_ep_ord']);
      await succeed(store, 'dlv_000001_ep_ord', 'ep_ord', 'w1', 2, at + 121_000);
      assert.deepEqual(await claim(store, 'w1', at + 122_000), ['dlv_000002_ep_ord']);
    });

    test('on_failure continue: a failed or skipped head lets its key go on', async (t) => {
      const store = await setup(factory, t, 'continue');
      await store.events.acceptEvents([event(1, 'k1', [ORD]), event(2, 'k1', [ORD]), event(3, 'k1', [ORD])]);
      assert.deepEqual(await claim(store), ['dlv_000001_ep_ord']);
      await failFor(store, 'dlv_000001_ep_ord');
      assert.deepEqual(await claim(store), ['dlv_000002_ep_ord']);
      await store.queue.endDeliveries(['dlv_000002_ep_ord'], null, 'skipped', 'endpoint_paused', T0 + 3000);
      assert.deepEqual(await claim(store), ['dlv_000003_ep_ord']);
    });

    test('on_failure block: a failed head holds its key until dismissed; dismiss takes only failed keyed deliveries, once', async (t) => {
      const store = await setup(factory, t, 'block');
      await store.events.acceptEvents([
        event(1, 'k1', [ORD]),
        event(2, 'k1', [ORD]),
        event(3, 'k2', [ORD]),
        event(4, null, [FREE]),
      ]);
      assert.deepEqual(await claim(store), ['dlv_000001_ep_ord', 'dlv_000003_ep_ord', 'dlv_000004_ep_free']);
      await failFor(store, 'dlv_000001_ep_ord');
      await succeed(store, 'dlv_000003_ep_ord');
      assert.deepEqual(await claim(store), []);
      assert.equal(
        await store.replays.dismissDelivery(TEN, 'dlv_000002_ep_ord', T0 + 4000),
        false,
        'pending: not dismissable',
      );
      assert.equal(
        await store.replays.dismissDelivery(TEN, 'dlv_000003_ep_ord', T0 + 4000),
        false,
        'succeeded: not dismissable',
      );
      assert.equal(
        await store.replays.dismissDelivery('ten_other', 'dlv_000001_ep_ord', T0 + 4000),
        false,
        'another tenant',
      );
      assert.equal(await store.replays.dismissDelivery(TEN, 'dlv_000001_ep_ord', T0 + 4000), true);
      assert.equal(
        await store.replays.dismissDelivery(TEN, 'dlv_000001_ep_ord', T0 + 4000),
        false,
        'already dismissed',
      );
      const d = await store.reporting.getDelivery(TEN, 'dlv_000001_ep_ord');
      assert.equal(d?.status, 'failed');
      assert.equal(d?.dismissedAt, T0 + 4000);
      assert.deepEqual(await claim(store), ['dlv_000002_ep_ord']);
    });

    test('on_failure block: a replayed head that succeeds frees its key; changing the endpoint to continue frees it at once', async (t) => {
      const store = await setup(factory, t, 'block');
      await store.events.acceptEvents([
        event(1, 'k1', [ORD]),
        event(2, 'k1', [ORD]),
        event(3, 'k2', [ORD]),
        event(4, 'k2', [ORD]),
      ]);
      await claim(store);
      await failFor(store, 'dlv_000001_ep_ord');
      await failFor(store, 'dlv_000003_ep_ord');
      assert.deepEqual(await claim(store), []);
      assert.equal(
        await store.replays.scheduleSingleReplay(replayRow('rpl_1', 'ep_ord'), 'dlv_000001_ep_ord', T0 + 5000),
        true,
      );
      assert.deepEqual(await claim(store, 'w1', T0 + 5000), ['dlv_000001_ep_ord']);
      await succeed(store, 'dlv_000001_ep_ord', 'ep_ord', 'w1', 2, T0 + 5100);
      assert.deepEqual(await claim(store, 'w1', T0 + 5200), ['dlv_000002_ep_ord']);
      await store.catalog.updateEndpoint(TEN, 'ep_ord', { orderingOnFailure: 'continue' }, T0 + 5300);
      assert.deepEqual(await claim(store, 'w1', T0 + 5400), ['dlv_000004_ep_ord']);
    });

    test('a replayed earlier delivery takes its place: later unfinished ones wait for it, and it waits for one already in flight', async (t) => {
      const store = await setup(factory, t, 'continue');
      await store.events.acceptEvents([event(1, 'k1', [ORD]), event(2, 'k1', [ORD]), event(3, 'k1', [ORD])]);
      assert.deepEqual(await claim(store), ['dlv_000001_ep_ord']);
      await failFor(store, 'dlv_000001_ep_ord');
      assert.deepEqual(await claim(store), ['dlv_000002_ep_ord']);
      // Replayed while a later one is on the wire: at most one in flight per key, so the replay waits.
      assert.equal(
        await store.replays.scheduleSingleReplay(replayRow('rpl_2', 'ep_ord'), 'dlv_000001_ep_ord', T0 + 2500),
        true,
      );
      assert.deepEqual(await claim(store, 'w1', T0 + 3000), []);
      await succeed(store, 'dlv_000002_ep_ord', 'ep_ord', 'w1', 1, T0 + 3100);
      // Now the replayed first one goes before the third.
      assert.deepEqual(await claim(store, 'w1', T0 + 3200), ['dlv_000001_ep_ord']);
      await succeed(store, 'dlv_000001_ep_ord', 'ep_ord', 'w1', 2, T0 + 3300);
      assert.deepEqual(await claim(store, 'w1', T0 + 3400), ['dlv_000003_ep_ord']);
    });

    test("on a paused endpoint a key's queue ends one by one, each end making the next due, though the key blocks", async (t) => {
      const store = await setup(factory, t, 'block');
      await store.events.acceptEvents([event(1, 'k1', [ORD]), event(2, 'k1', [ORD]), event(3, 'k1', [ORD])]);
      await store.catalog.updateEndpoint(TEN, 'ep_ord', { status: 'paused', pauseReason: 'manual' }, T0 + 500);
      assert.equal(await store.queue.nextDueAt(), T0);
      for (const n of [1, 2, 3]) {
        assert.deepEqual(await claim(store), [`dlv_00000${n}_ep_ord`]);
        await store.queue.endDeliveries([`dlv_00000${n}_ep_ord`], 'w1', 'failed', 'endpoint_paused', T0 + 1000 * n);
        assert.equal(await store.queue.nextDueAt(), n < 3 ? T0 + 1000 * n : null);
      }
    });

    test('a head whose worker died is claimed again after its lease expires, still before the rest of its key', async (t) => {
      const store = await setup(factory, t);
      await store.events.acceptEvents([event(1, 'k1', [ORD]), event(2, 'k1', [ORD])]);
      const got = await store.queue.claimDue({
        now: T0 + 1000,
        limit: 10,
        leaseUntil: T0 + 2000,
        workerId: 'dead',
        saturatedEndpoints: [],
      });
      assert.deepEqual(
        got.map((c) => c.delivery.id),
        ['dlv_000001_ep_ord'],
      );
      assert.deepEqual(await claim(store, 'w2', T0 + 1500), []);
      assert.equal(await store.queue.releaseExpiredLeases(T0 + 3000), 1);
      assert.deepEqual(await claim(store, 'w2', T0 + 3000), ['dlv_000001_ep_ord']);
      // The dead worker's late record changes nothing: the new holder decides.
      await store.queue.recordAttempts(
        [
          finish(attempt({ id: 'dlv_000001_ep_ord', endpointId: 'ep_ord' }, 1, T0 + 3100, 'success'), 'dead', {
            status: 'succeeded',
          }),
        ],
        T0 + 3100,
      );
      assert.deepEqual(await claim(store, 'w2', T0 + 3200), []);
      await succeed(store, 'dlv_000001_ep_ord', 'ep_ord', 'w2', 1, T0 + 3300);
      assert.deepEqual(await claim(store, 'w2', T0 + 3400), ['dlv_000002_ep_ord']);
    });

    test('concurrent claims of several workers never lease two deliveries of one key', async (t) => {
      const store = await setup(factory, t);
      const events: NewEvent[] = [];
      for (let i = 1; i <= 60; i++) events.push(event(i, `k${i % 6}`, [ORD]));
      await store.events.acceptEvents(events);
      const seen = new Map<string, number>();
      let now = T0 + 1000;
      for (let round = 0; round < 12; round++) {
        const claims = await Promise.all(
          ['w1', 'w2', 'w3'].map((w) =>
            store.queue
              .claimDue({ now, limit: 50, leaseUntil: now + 60_000, workerId: w, saturatedEndpoints: [] })
              .then((c) => c.map((x) => ({ x, w }))),
          ),
        );
        const flat = claims.flat();
        const keys = flat.map(({ x }) => x.delivery.orderingKey);
        assert.equal(new Set(keys).size, keys.length, `round ${round}: one lease per key`);
        for (const { x, w } of flat) {
          const seq = x.delivery.orderingSeq!;
          assert.equal(seq, (seen.get(x.delivery.orderingKey!) ?? 0) + 1, 'in order');
          seen.set(x.delivery.orderingKey!, seq);
          await succeed(store, x.delivery.id, 'ep_ord', w, 1, now);
        }
        now += 1000;
      }
      assert.deepEqual([...seen.values()], [10, 10, 10, 10, 10, 10]);
    });
  });
}
