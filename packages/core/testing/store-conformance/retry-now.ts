// Conformance: retry now (docs/rules.md#retry-now) — a pending delivery due later becomes due now, as its next
// attempt; of an ordering key only the head moves; finished, leased and blocked deliveries do not.
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/store.ts';
import { attemptOf, endpoint, H, MIN, newEvent, record, S, secret, setup, T0, type WithStore } from './fixtures.ts';

const claim = (store: Store, now: number, limit = 10) =>
  store.queue.claimDue({ now, limit, leaseUntil: now + MIN, workerId: 'w1', saturatedEndpoints: [] });

/** Fails delivery `id` once at `at` (it goes pending again, its next rung an hour later). */
async function failOnce(store: Store, id: string, endpointId: string, at: number, key?: string): Promise<void> {
  const [c] = (await claim(store, at)).filter((x) => x.delivery.id === id);
  assert.ok(c, `${id} is claimable at ${at}`);
  await store.queue.recordAttempts(
    [
      record(
        attemptOf(id, 'ten_A', endpointId, 1, at, 'delivery_failure'),
        'w1',
        { status: 'pending', nextAttemptAt: at + H, ladder: 'fast' },
        key ? { ordering: { endpointId, key } } : {},
      ),
    ],
    at,
  );
}

async function keyed(store: Store, onFailure: 'continue' | 'block' = 'continue'): Promise<void> {
  await store.catalog.createEndpoint(
    endpoint('ep_k', 'ten_A', { ordering: 'key', orderingOnFailure: onFailure }),
    secret('sec_k', 'ep_k'),
  );
  for (const n of [1, 2, 3]) {
    const ne = newEvent('ten_A', n, ['ep_k'], { at: T0 + n });
    ne.event.orderingKey = 'order-1';
    ne.deliveries[0]!.orderingKey = 'order-1';
    await store.events.acceptEvents([ne]);
  }
}

export function retryNowConformance(withStore: WithStore): void {
  withStore('a pending delivery due later becomes due now, keeping its ladder; the claim takes it', async (store) => {
    await setup(store);
    await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1'])]);
    await failOnce(store, 'dlv_000001_0', 'ep_1', T0);
    const now = T0 + MIN;
    assert.equal((await claim(store, now)).length, 0, 'not due before its rung');
    assert.equal(await store.queue.retryDelivery('ten_A', 'dlv_000001_0', now), true);
    const d = await store.reporting.getDelivery('ten_A', 'dlv_000001_0');
    assert.equal(d?.nextAttemptAt, now);
    assert.equal(d?.status, 'pending');
    assert.equal(d?.ladder, 'fast', 'its ladder is kept: the next attempt counts on it');
    assert.equal(await store.queue.nextDueAt(), now);
    const claimed = await claim(store, now);
    assert.deepEqual(
      claimed.map((c) => c.delivery.id),
      ['dlv_000001_0'],
    );
    assert.equal(
      await store.queue.retryDelivery('ten_A', 'dlv_000001_0', now),
      false,
      'a leased delivery does not move',
    );
  });

  withStore('only pending or held deliveries of the tenant, due later, move', async (store) => {
    await setup(store);
    await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1'])]);
    assert.equal(
      await store.queue.retryDelivery('ten_A', 'dlv_000001_0', T0 + S),
      false,
      'already due: nothing to move',
    );
    await failOnce(store, 'dlv_000001_0', 'ep_1', T0 + S);
    assert.equal(await store.queue.retryDelivery('ten_B', 'dlv_000001_0', T0 + MIN), false, "another tenant's id");
    const [c] = await claim(store, T0 + 2 * H);
    await store.queue.recordAttempts(
      [record(attemptOf(c!.delivery.id, 'ten_A', 'ep_1', 2, T0 + 2 * H, 'success'), 'w1', { status: 'succeeded' })],
      T0 + 2 * H,
    );
    assert.equal(await store.queue.retryDelivery('ten_A', 'dlv_000001_0', T0 + 3 * H), false, 'a finished delivery');
  });

  withStore('of an ordering key only the head moves; the key names its head', async (store) => {
    await setup(store);
    await keyed(store);
    await failOnce(store, 'dlv_000001_0', 'ep_k', T0 + S, 'order-1');
    const now = T0 + MIN;
    assert.deepEqual(await store.queue.findKeyHead('ep_k', 'order-1'), { id: 'dlv_000001_0', status: 'pending' });
    assert.equal(await store.queue.retryDelivery('ten_A', 'dlv_000002_0', now), false, 'not the head');
    assert.equal(await store.queue.retryDelivery('ten_A', 'dlv_000001_0', now), true);
    assert.equal(
      (await store.reporting.getDelivery('ten_A', 'dlv_000002_0'))?.nextAttemptAt,
      null,
      'the next still waits',
    );
  });

  withStore('a failed head of a block key is the head: the next of the key does not move', async (store) => {
    await setup(store);
    await keyed(store, 'block');
    const [c] = await claim(store, T0 + S);
    await store.queue.recordAttempts(
      [
        record(
          attemptOf(c!.delivery.id, 'ten_A', 'ep_k', 1, T0 + S, 'client_error', 400),
          'w1',
          { status: 'failed', reason: 'HTTP 400' },
          { ordering: { endpointId: 'ep_k', key: 'order-1' } },
        ),
      ],
      T0 + S,
    );
    // Promoted (due) behind the failure, yet not the head.
    assert.deepEqual(await store.queue.findKeyHead('ep_k', 'order-1'), { id: 'dlv_000001_0', status: 'failed' });
    const d2 = await store.reporting.getDelivery('ten_A', 'dlv_000002_0');
    assert.notEqual(d2?.nextAttemptAt, null);
    assert.equal(
      await store.queue.retryEndpointDeliveries('ep_k', T0 - H),
      0,
      'behind a blocking failure nothing moves',
    );
  });

  withStore('an endpoint retry moves every pending delivery due later, heads only, not held ones', async (store) => {
    await setup(store);
    await keyed(store);
    await failOnce(store, 'dlv_000001_0', 'ep_k', T0 + S, 'order-1');
    await store.events.acceptEvents([newEvent('ten_A', 4, ['ep_1']), newEvent('ten_A', 5, ['ep_1'])]);
    // 4 fails once (its next rung an hour on); 5 is held by a breaker for an hour.
    const leased = (await claim(store, T0 + S)).map((c) => c.delivery.id).sort();
    assert.deepEqual(leased, ['dlv_000004_0', 'dlv_000005_0']);
    await store.queue.recordAttempts(
      [
        record(attemptOf('dlv_000004_0', 'ten_A', 'ep_1', 1, T0 + S, 'delivery_failure'), 'w1', {
          status: 'pending',
          nextAttemptAt: T0 + H,
          ladder: 'fast',
        }),
      ],
      T0 + S,
    );
    await store.queue.holdDeliveries(['dlv_000005_0'], 'w1', T0 + H, T0 + S);
    const now = T0 + MIN;
    assert.equal(await store.queue.retryEndpointDeliveries('ep_k', now), 1, 'the head of order-1 only');
    assert.equal((await store.reporting.getDelivery('ten_A', 'dlv_000001_0'))?.nextAttemptAt, now);
    assert.equal((await store.reporting.getDelivery('ten_A', 'dlv_000003_0'))?.nextAttemptAt, null);
    assert.equal(await store.queue.retryEndpointDeliveries('ep_1', now), 1, 'the pending one, not the held one');
    assert.equal((await store.reporting.getDelivery('ten_A', 'dlv_000004_0'))?.nextAttemptAt, now);
    assert.equal((await store.reporting.getDelivery('ten_A', 'dlv_000005_0'))?.nextAttemptAt, T0 + H);
    assert.equal(await store.queue.retryEndpointDeliveries('ep_1', now), 0, 'already due: counted once');
    assert.equal(await store.queue.retryEndpointDeliveries('ep_2', now), 0);
  });
}
