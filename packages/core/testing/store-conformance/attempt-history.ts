// Store conformance, attempt history (the delivery page's timeline): the held period (docs/rules.md#breaker-hold) a
// delivery's next attempt takes over, on each path that records attempts: a batch, a keyed delivery (PostgreSQL's
// row-by-row finish), a lost lease, a probe without a release, and a delivery that ends while held.
import assert from 'node:assert/strict';
import type { Attempt } from '../../src/domain.ts';
import type { AttemptRecord, NewEvent, Store } from '../../src/store/store.ts';
import { attemptOf, endpoint, MIN, newEvent, record, S, secret, setup, T0, type WithStore } from './fixtures.ts';

const claim = (store: Store, now: number, workerId = 'w1', limit = 10) =>
  store.queue.claimDue({ now, limit, leaseUntil: now + MIN, workerId, saturatedEndpoints: [] });

/** The held period as the store returns it: [from, until] relative to T0 (null: none). */
const held = (x: { heldFrom?: number | null; heldUntil?: number | null } | undefined) =>
  x?.heldFrom == null ? null : [x.heldFrom - T0, x.heldUntil == null ? null : x.heldUntil - T0];
const heldOf = async (store: Store, id: string) => {
  const d = await store.reporting.getDelivery('ten_A', id);
  return d?.heldSince == null ? null : [d.heldSince - T0, d.heldUntil == null ? null : d.heldUntil - T0];
};
const retry = (at: number): AttemptRecord['next'] => ({ status: 'pending', nextAttemptAt: at, ladder: 'fast' });
const attempts = async (store: Store, id: string): Promise<Attempt[]> => store.reporting.listAttempts(id);

export function attemptHistoryConformance(withStore: WithStore): void {
  withStore(
    'a delivery held, held again and then released records its held period on its next attempt, then clears it',
    async (store) => {
      await setup(store);
      await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1']), newEvent('ten_A', 2, ['ep_2'])]);
      const [d1, d2] = ['dlv_000001_0', 'dlv_000002_0'];
      assert.equal((await claim(store, T0)).length, 2);
      await store.queue.holdDeliveries([d1, d2], 'w1', T0 + 5 * MIN, T0 + S);
      assert.deepEqual(await heldOf(store, d1), [S, null], 'held since the hold, open');
      // Due again while the breaker stays open: held again, and the period keeps its first start.
      assert.equal((await claim(store, T0 + 5 * MIN)).length, 2);
      await store.queue.holdDeliveries([d1, d2], 'w1', T0 + 10 * MIN, T0 + 5 * MIN);
      assert.deepEqual(await heldOf(store, d2), [S, null]);
      assert.equal(await store.breakers.releaseHeld({ endpointId: 'ep_1' }, T0 + 6 * MIN), 1);
      assert.equal(
        await store.breakers.releaseHeld({ tenantId: 'ten_A' }, T0 + 7 * MIN),
        1,
        'only ep_2 was still held',
      );
      assert.deepEqual(await heldOf(store, d1), [S, 6 * MIN], "ep_1's release ended it");
      assert.deepEqual(await heldOf(store, d2), [S, 7 * MIN], "the tenant's release ended ep_2's");

      const at = T0 + 7 * MIN + 10;
      assert.equal((await claim(store, at)).length, 2);
      await store.queue.recordAttempts(
        [
          record(attemptOf(d1, 'ten_A', 'ep_1', 1, at, 'delivery_failure'), 'w1', retry(at + MIN)),
          record(attemptOf(d2, 'ten_A', 'ep_2', 1, at, 'success'), 'w1', { status: 'succeeded' }),
        ],
        at + 20,
      );
      assert.deepEqual(held((await attempts(store, d1))[0]), [S, 6 * MIN]);
      assert.deepEqual(held((await attempts(store, d2))[0]), [S, 7 * MIN]);
      assert.equal(await heldOf(store, d1), null, 'the attempt took it over: the delivery has none');
      assert.equal(await heldOf(store, d2), null);

      // The attempt after it was not held.
      const at2 = at + MIN;
      assert.equal((await claim(store, at2)).length, 1);
      await store.queue.recordAttempts(
        [record(attemptOf(d1, 'ten_A', 'ep_1', 2, at2, 'success'), 'w1', { status: 'succeeded' })],
        at2,
      );
      assert.deepEqual(
        (await attempts(store, d1)).map((a) => held(a)),
        [[S, 6 * MIN], null],
      );
    },
  );

  withStore(
    "a held delivery attempted as the breaker's probe (no release) is held until that attempt",
    async (store) => {
      await setup(store);
      await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1'])]);
      const id = 'dlv_000001_0';
      await claim(store, T0);
      await store.queue.holdDeliveries([id], 'w1', T0 + 5 * MIN, T0 + 2 * S);
      const at = T0 + 5 * MIN + 40;
      const [probe] = await claim(store, at);
      assert.equal(probe?.delivery.id, id);
      await store.queue.recordAttempts(
        [record(attemptOf(id, 'ten_A', 'ep_1', 1, at, 'success'), 'w1', { status: 'succeeded' })],
        at,
      );
      assert.deepEqual(held((await attempts(store, id))[0]), [2 * S, 5 * MIN + 40]);
      assert.equal(await heldOf(store, id), null);
    },
  );

  withStore(
    'an attempt recorded after its lease was lost takes no held period: the holder of the lease records it',
    async (store) => {
      await setup(store);
      await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1'])]);
      const id = 'dlv_000001_0';
      await claim(store, T0);
      await store.queue.holdDeliveries([id], 'w1', T0 + MIN, T0);
      await store.breakers.releaseHeld({ endpointId: 'ep_1' }, T0 + 30 * S);
      const at = T0 + MIN;
      await claim(store, at, 'w2');
      const stale = { ...attemptOf(id, 'ten_A', 'ep_1', 1, at, 'success'), id: 'att_stale' };
      await store.queue.recordAttempts([record(stale, 'w1', { status: 'succeeded' })], at);
      assert.deepEqual(await heldOf(store, id), [0, 30 * S], 'still the delivery’s');
      await store.queue.recordAttempts(
        [record(attemptOf(id, 'ten_A', 'ep_1', 1, at + 5, 'success'), 'w2', { status: 'succeeded' })],
        at + 5,
      );
      const byId = new Map((await attempts(store, id)).map((a) => [a.id, held(a)]));
      assert.equal(byId.get('att_stale'), null);
      assert.deepEqual(byId.get(attemptOf(id, 'ten_A', 'ep_1', 1, at + 5, 'success').id), [0, 30 * S]);
      assert.equal(await heldOf(store, id), null);
    },
  );

  withStore('a keyed delivery (recorded one by one) takes over its held period like any other', async (store) => {
    await setup(store);
    await store.catalog.createEndpoint(endpoint('ep_k', 'ten_A', { ordering: 'key' }), secret('sec_k', 'ep_k'));
    const ne: NewEvent = newEvent('ten_A', 1, ['ep_k']);
    ne.event.orderingKey = 'order-1';
    ne.deliveries[0]!.orderingKey = 'order-1';
    await store.events.acceptEvents([ne]);
    const id = 'dlv_000001_0';
    assert.equal((await claim(store, T0)).length, 1);
    await store.queue.holdDeliveries([id], 'w1', T0 + 5 * MIN, T0 + S);
    await store.breakers.releaseHeld({ tenantId: 'ten_A' }, T0 + 3 * MIN);
    const at = T0 + 3 * MIN + 1;
    assert.equal((await claim(store, at)).length, 1);
    await store.queue.recordAttempts(
      [
        record(
          attemptOf(id, 'ten_A', 'ep_k', 1, at, 'success'),
          'w1',
          { status: 'succeeded' },
          {
            ordering: { endpointId: 'ep_k', key: 'order-1' },
          },
        ),
      ],
      at,
    );
    assert.deepEqual(held((await attempts(store, id))[0]), [S, 3 * MIN]);
    assert.equal(await heldOf(store, id), null);
  });

  withStore(
    'a held delivery that ends without an attempt (age limit) keeps its held period, ended then',
    async (store) => {
      await setup(store);
      await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1']), newEvent('ten_A', 2, ['ep_2'])]);
      await claim(store, T0);
      await store.queue.holdDeliveries(['dlv_000001_0', 'dlv_000002_0'], 'w1', T0 + 5 * MIN, T0 + S);
      await claim(store, T0 + 5 * MIN);
      await store.queue.endDeliveries(['dlv_000001_0'], 'w1', 'failed', 'age limit', T0 + 5 * MIN);
      assert.deepEqual(await heldOf(store, 'dlv_000001_0'), [S, 5 * MIN]);
      assert.deepEqual(await heldOf(store, 'dlv_000002_0'), [S, null], 'the other one’s is still open');
      // Never held: ending it writes no period.
      await store.events.acceptEvents([newEvent('ten_A', 3, ['ep_2'])]);
      await claim(store, T0 + 5 * MIN, 'w3');
      await store.queue.endDeliveries(['dlv_000003_0'], 'w3', 'failed', 'paused', T0 + 5 * MIN);
      assert.equal(await heldOf(store, 'dlv_000003_0'), null);
    },
  );
}
