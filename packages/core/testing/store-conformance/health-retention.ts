// Store conformance, health sweeps and retention: endpoints failing since a time, purging what has ended.
import assert from 'node:assert/strict';
import { DAY, endpoint, failedSetup, newEvent, secret, T0, tenant, type WithStore } from './fixtures.ts';

export function healthRetentionConformance(withStore: WithStore): void {
  withStore('health sweep: endpoints failing since before a time', async (store) => {
    await store.catalog.createTenant(tenant('ten_A'));
    await store.catalog.createEndpoint(
      endpoint('ep_old', 'ten_A', { status: 'degraded', failingSince: T0 - 6 * DAY }),
      secret('s1', 'ep_old'),
    );
    await store.catalog.createEndpoint(
      endpoint('ep_new', 'ten_A', { status: 'degraded', failingSince: T0 - DAY }),
      secret('s2', 'ep_new'),
    );
    await store.catalog.createEndpoint(endpoint('ep_ok', 'ten_A'), secret('s3', 'ep_ok'));
    assert.deepEqual(
      (await store.breakers.listEndpointsFailingSince(T0 - 5 * DAY)).map((e) => e.id),
      ['ep_old'],
    );
    if (typeof store.breakers.pauseFailingEndpoint === 'function') {
      assert.equal(await store.breakers.pauseFailingEndpoint('ep_old', T0 - 5 * DAY, T0), false, 'another streak');
      assert.equal(await store.breakers.pauseFailingEndpoint('ep_old', T0 - 6 * DAY, T0), true);
      const ep = await store.catalog.getEndpoint('ten_A', 'ep_old');
      assert.deepEqual([ep?.status, ep?.pauseReason], ['paused', 'failing']);
    }
  });

  withStore(
    'retention: terminal deliveries (attempts with them), then events left without deliveries, then old breaker window rows',
    async (store) => {
      await failedSetup(store);
      await store.events.acceptEvents([newEvent('ten_A', 5, ['ep_1'], { at: T0 })]); // still pending: never purged
      assert.equal(await store.retention.purgeDeliveries(T0, 100), 0, 'nothing touched before T0');
      assert.equal(await store.retention.purgeDeliveries(T0 + DAY, 2), 2, 'batch');
      assert.equal(await store.retention.purgeDeliveries(T0 + DAY, 100), 2);
      assert.equal(await store.retention.purgeDeliveries(T0 + DAY, 100), 0);
      assert.deepEqual(await store.reporting.listAttempts('dlv_000001_0'), []);
      assert.equal((await store.reporting.getDelivery('ten_A', 'dlv_000005_0'))?.status, 'pending');
      assert.equal(await store.retention.purgeEvents(T0 + DAY, 100), 4);
      assert.ok(await store.events.getEvent('ten_A', 'e-5'));
      assert.equal(await store.events.getEvent('ten_A', 'e-1'), null);
      assert.equal(await store.retention.purgeBreakerWindow(T0 + DAY), 0);
    },
  );
}
