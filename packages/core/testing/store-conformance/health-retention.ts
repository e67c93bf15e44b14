// Store conformance, health sweeps and retention: endpoints failing since a time, purging what has ended.
import assert from 'node:assert/strict';
import { DAY, endpoint, failedSetup, newEvent, secret, T0, tenant, type WithStore } from './fixtures.ts';

export function healthRetentionConformance(withStore: WithStore): void {
  withStore('health sweep: endpoints failing since before a time', async (store) => {
    await store.createTenant(tenant('ten_A'));
    await store.createEndpoint(
      endpoint('ep_old', 'ten_A', { status: 'degraded', failingSince: T0 - 6 * DAY }),
      secret('s1', 'ep_old'),
    );
    await store.createEndpoint(
      endpoint('ep_new', 'ten_A', { status: 'degraded', failingSince: T0 - DAY }),
      secret('s2', 'ep_new'),
    );
    await store.createEndpoint(endpoint('ep_ok', 'ten_A'), secret('s3', 'ep_ok'));
    assert.deepEqual(
      (await store.listEndpointsFailingSince(T0 - 5 * DAY)).map((e) => e.id),
      ['ep_old'],
    );
    if (typeof store.pauseFailingEndpoint === 'function') {
      assert.equal(await store.pauseFailingEndpoint('ep_old', T0 - 5 * DAY, T0), false, 'another streak');
      assert.equal(await store.pauseFailingEndpoint('ep_old', T0 - 6 * DAY, T0), true);
      const ep = await store.getEndpoint('ten_A', 'ep_old');
      assert.deepEqual([ep?.status, ep?.pauseReason], ['paused', 'failing']);
    }
  });

  withStore(
    'retention: terminal deliveries (attempts with them), then events left without deliveries, then old breaker window rows',
    async (store) => {
      await failedSetup(store);
      await store.acceptEvents([newEvent('ten_A', 5, ['ep_1'], { at: T0 })]); // still pending: never purged
      assert.equal(await store.purgeDeliveries(T0, 100), 0, 'nothing touched before T0');
      assert.equal(await store.purgeDeliveries(T0 + DAY, 2), 2, 'batch');
      assert.equal(await store.purgeDeliveries(T0 + DAY, 100), 2);
      assert.equal(await store.purgeDeliveries(T0 + DAY, 100), 0);
      assert.deepEqual(await store.listAttempts('dlv_000001_0'), []);
      assert.equal((await store.getDelivery('ten_A', 'dlv_000005_0'))?.status, 'pending');
      assert.equal(await store.purgeEvents(T0 + DAY, 100), 4);
      assert.ok(await store.getEvent('ten_A', 'e-5'));
      assert.equal(await store.getEvent('ten_A', 'e-1'), null);
      assert.equal(await store.purgeBreakerWindow(T0 + DAY), 0);
    },
  );
}
