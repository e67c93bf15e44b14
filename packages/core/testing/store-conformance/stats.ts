// Store conformance, stats: the oldest due delivery and per-endpoint queue and outcome counts.
import assert from 'node:assert/strict';
import { endpoint, failedSetup, H, MIN, newEvent, S, secret, T0, type WithStore } from './fixtures.ts';

export function statsConformance(withStore: WithStore): void {
  withStore(
    'stats: the oldest due pending delivery, and per endpoint its queue and what ended in the window',
    async (store) => {
      await failedSetup(store); // dlv 1 failed at T0, 2 succeeded at T0+1min, 3 failed at T0+2min, 4 skipped
      await store.createEndpoint(endpoint('ep_2', 'ten_A'), secret('sec_2', 'ep_2'));
      await store.acceptEvents([
        newEvent('ten_A', 5, ['ep_1'], { at: T0 + 10 * MIN }),
        newEvent('ten_A', 6, ['ep_2'], { at: T0 + 20 * MIN }),
      ]);
      assert.equal(await store.oldestDueAt(T0 + 5 * MIN), null, 'nothing due yet');
      assert.equal(await store.oldestDueAt(T0 + H), T0 + 10 * MIN);
      const stats = await store.endpointStats('ten_A', T0 - H, T0 + 15 * MIN);
      assert.deepEqual(stats, [
        {
          endpointId: 'ep_1',
          endpointStatus: 'degraded',
          queued: { pending: 1, delivering: 0, held: 0 },
          oldestDueAt: T0 + 10 * MIN,
          succeeded: 1,
          failed: 2,
        },
        {
          endpointId: 'ep_2',
          endpointStatus: 'active',
          queued: { pending: 1, delivering: 0, held: 0 },
          oldestDueAt: null,
          succeeded: 0,
          failed: 0,
        },
      ]);
      const [ep1Late] = await store.endpointStats('ten_A', T0 + 90 * S, T0 + H);
      assert.deepEqual([ep1Late.succeeded, ep1Late.failed], [0, 1], 'only what ended since the window start');
      await store.claimDue({ now: T0 + H, limit: 1, leaseUntil: T0 + 2 * H, workerId: 'w', saturatedEndpoints: [] });
      assert.deepEqual((await store.endpointStats('ten_A', T0, T0 + H))[0].queued, {
        pending: 0,
        delivering: 1,
        held: 0,
      });
      assert.equal(await store.oldestDueAt(T0 + H), T0 + 20 * MIN);
      assert.deepEqual(await store.endpointStats('ten_B', T0, T0 + H), []);
    },
  );

  withStore(
    "stats: deliveries per minute of their last attempt, by state, only the tenant's and only since the window start",
    async (store) => {
      await failedSetup(store); // dlv 1 failed at T0, 2 succeeded at T0+1min, 3 failed at T0+2min, 4 skipped
      const m = (at: number) => Math.floor(at / MIN);
      const expected = new Map<number, { minute: number; succeeded: number; retrying: number; failed: number }>();
      for (const [at, k] of [
        [T0, 'failed'],
        [T0 + MIN, 'succeeded'],
        [T0 + 2 * MIN, 'failed'],
      ] as const) {
        const row = expected.get(m(at)) ?? { minute: m(at), succeeded: 0, retrying: 0, failed: 0 };
        row[k]++;
        expected.set(m(at), row);
      }
      assert.deepEqual(await store.deliveriesPerMinute('ten_A', T0 - H), [...expected.values()]);
      assert.deepEqual(
        (await store.deliveriesPerMinute('ten_A', T0 + 2 * MIN)).map((r) => [r.minute, r.failed]),
        [[m(T0 + 2 * MIN), 1]],
      );
      assert.deepEqual(await store.deliveriesPerMinute('ten_B', T0 - H), []);
    },
  );
}
