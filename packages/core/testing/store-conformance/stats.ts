// Store conformance, stats: the oldest due delivery and per-endpoint queue and outcome counts.
import assert from 'node:assert/strict';
import {
  attemptOf,
  DAY,
  endpoint,
  failedSetup,
  H,
  MIN,
  newEvent,
  record,
  S,
  secret,
  setup,
  T0,
  type WithStore,
} from './fixtures.ts';

export function statsConformance(withStore: WithStore): void {
  withStore(
    'stats: the oldest due pending delivery, and per endpoint its queue and what ended in the window',
    async (store) => {
      await failedSetup(store); // dlv 1 failed at T0, 2 succeeded at T0+1min, 3 failed at T0+2min, 4 skipped
      await store.catalog.createEndpoint(endpoint('ep_2', 'ten_A'), secret('sec_2', 'ep_2'));
      await store.events.acceptEvents([
        newEvent('ten_A', 5, ['ep_1'], { at: T0 + 10 * MIN }),
        newEvent('ten_A', 6, ['ep_2'], { at: T0 + 20 * MIN }),
      ]);
      assert.equal(await store.reporting.oldestDueAt(T0 + 5 * MIN), null, 'nothing due yet');
      assert.equal(await store.reporting.oldestDueAt(T0 + H), T0 + 10 * MIN);
      const stats = await store.reporting.endpointStats('ten_A', T0 - H, T0 + 15 * MIN);
      assert.deepEqual(stats, [
        {
          endpointId: 'ep_1',
          endpointStatus: 'degraded',
          queued: { pending: 1, delivering: 0, held: 0 },
          oldestDueAt: T0 + 10 * MIN,
          succeeded: 1,
          failed: 2,
          latencyMsSum: 36,
          latencyCount: 3,
        },
        {
          endpointId: 'ep_2',
          endpointStatus: 'active',
          queued: { pending: 1, delivering: 0, held: 0 },
          oldestDueAt: null,
          succeeded: 0,
          failed: 0,
          latencyMsSum: 0,
          latencyCount: 0,
        },
      ]);
      const [ep1Late] = await store.reporting.endpointStats('ten_A', T0 + 90 * S, T0 + H);
      assert.deepEqual([ep1Late.succeeded, ep1Late.failed], [0, 1], 'only what ended since the window start');
      await store.queue.claimDue({
        now: T0 + H,
        limit: 1,
        leaseUntil: T0 + 2 * H,
        workerId: 'w',
        saturatedEndpoints: [],
      });
      assert.deepEqual((await store.reporting.endpointStats('ten_A', T0, T0 + H))[0].queued, {
        pending: 0,
        delivering: 1,
        held: 0,
      });
      assert.equal(await store.reporting.oldestDueAt(T0 + H), T0 + 20 * MIN);
      assert.deepEqual(await store.reporting.endpointStats('ten_B', T0, T0 + H), []);
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
      assert.deepEqual(await store.reporting.deliveriesPerMinute('ten_A', T0 - H), [...expected.values()]);
      assert.deepEqual(
        (await store.reporting.deliveriesPerMinute('ten_A', T0 + 2 * MIN)).map((r) => [r.minute, r.failed]),
        [[m(T0 + 2 * MIN), 1]],
      );
      assert.deepEqual(await store.reporting.deliveriesPerMinute('ten_B', T0 - H), []);
    },
  );

  withStore(
    'stats counters: each retry counts, a retried commit or a lost lease counts nothing, counts outlive purged deliveries, old minutes are purged',
    async (store) => {
      await setup(store);
      await store.events.acceptEvents([
        newEvent('ten_A', 1, ['ep_1'], { at: T0 }),
        newEvent('ten_A', 2, ['ep_1'], { at: T0 + 2 * MIN }),
      ]);
      const claim = (now: number, workerId: string, leaseUntil = now + MIN) =>
        store.queue.claimDue({ now, limit: 1, leaseUntil, workerId, saturatedEndpoints: [] });
      // Event 1: fails at T0 (to be retried), then succeeds at T0+1min; the first record is committed twice.
      const [c1] = await claim(T0, 'w');
      const retry = record(attemptOf(c1.delivery.id, 'ten_A', 'ep_1', 1, T0, 'delivery_failure', 503), 'w', {
        status: 'pending',
        nextAttemptAt: T0 + MIN,
        ladder: 'fast',
      });
      await store.queue.recordAttempts([retry], T0);
      await store.queue.recordAttempts([retry], T0); // a commit retried after it landed
      const [c1b] = await claim(T0 + MIN, 'w');
      assert.equal(c1b.delivery.id, c1.delivery.id);
      await store.queue.recordAttempts(
        [record(attemptOf(c1.delivery.id, 'ten_A', 'ep_1', 2, T0 + MIN, 'success', 200), 'w', { status: 'succeeded' })],
        T0 + MIN,
      );
      // Event 2: w's lease runs out and w2 takes it over; w's late record changes nothing, w2's success counts.
      const [c2] = await claim(T0 + 2 * MIN, 'w', T0 + 2 * MIN + 1);
      assert.equal(await store.queue.releaseExpiredLeases(T0 + 3 * MIN), 1);
      const [c2b] = await claim(T0 + 3 * MIN, 'w2');
      assert.equal(c2b.delivery.id, c2.delivery.id);
      await store.queue.recordAttempts(
        [
          record(attemptOf(c2.delivery.id, 'ten_A', 'ep_1', 1, T0 + 2 * MIN, 'success', 200), 'w', {
            status: 'succeeded',
          }),
        ],
        T0 + 3 * MIN,
      );
      await store.queue.recordAttempts(
        [
          record(attemptOf(c2.delivery.id, 'ten_A', 'ep_1', 1, T0 + 3 * MIN, 'success', 200), 'w2', {
            status: 'succeeded',
          }),
        ],
        T0 + 3 * MIN,
      );
      const m = (at: number) => Math.floor(at / MIN);
      const minutes = [
        { minute: m(T0), succeeded: 0, retrying: 1, failed: 0 },
        { minute: m(T0 + MIN), succeeded: 1, retrying: 0, failed: 0 },
        { minute: m(T0 + 3 * MIN), succeeded: 1, retrying: 0, failed: 0 },
      ];
      assert.deepEqual(await store.reporting.deliveriesPerMinute('ten_A', T0 - H), minutes);
      const ep1 = async () => (await store.reporting.endpointStats('ten_A', T0 - H, T0 + H))[0];
      assert.deepEqual(
        [(await ep1()).succeeded, (await ep1()).failed, (await ep1()).latencyCount, (await ep1()).latencyMsSum],
        [2, 0, 3, 36],
        'two deliveries succeeded; three attempts counted, the lost lease and the retried commit not',
      );
      // The counters are what the stats read: removing the deliveries they counted leaves the counts.
      assert.equal(await store.retention.purgeDeliveries(T0 + DAY, 100), 2);
      assert.deepEqual(await store.reporting.deliveriesPerMinute('ten_A', T0 - H), minutes);
      assert.equal((await ep1()).succeeded, 2);
      // Retention forgets minutes before its cut-off, in batches.
      assert.equal(await store.retention.purgeDeliveryMinutes(T0 + 2 * MIN, 1), 1);
      assert.equal(await store.retention.purgeDeliveryMinutes(T0 + 2 * MIN, 100), 1);
      assert.equal(await store.retention.purgeDeliveryMinutes(T0 + 2 * MIN, 100), 0);
      assert.deepEqual(await store.reporting.deliveriesPerMinute('ten_A', T0 - H), minutes.slice(2));
    },
  );
}
