// Store conformance, attempt records: recordAttempts' next states, lost leases, vanished deliveries, idempotent retries.
import assert from 'node:assert/strict';
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

export function recordsConformance(withStore: WithStore): void {
  withStore(
    'recordAttempts: next states, lost leases, health transitions, breaker window, replay progress',
    async (store) => {
      await setup(store);
      await store.events.acceptEvents([
        newEvent('ten_A', 1, ['ep_1', 'ep_2']),
        newEvent('ten_A', 2, ['ep_1']),
        newEvent('ten_A', 3, ['ep_2']),
      ]);
      const claimed = await store.queue.claimDue({
        now: T0,
        limit: 10,
        leaseUntil: T0 + MIN,
        workerId: 'w1',
        saturatedEndpoints: [],
      });
      assert.equal(claimed.length, 4);
      await store.replays.createReplay({
        id: 'rpl_1',
        tenantId: 'ten_A',
        endpointId: 'ep_2',
        kind: 'single',
        sinceMs: null,
        untilMs: null,
        includeSkipped: false,
        selected: 1,
        attempted: 0,
        succeeded: 0,
        failed: 0,
        createdAt: T0,
      });
      const t = T0 + 100;
      const transitions = await store.queue.recordAttempts(
        [
          record(
            attemptOf('dlv_000001_0', 'ten_A', 'ep_1', 1, t, 'delivery_failure'),
            'w1',
            { status: 'pending', nextAttemptAt: t + S, ladder: 'fast' },
            { breakerScope: 'tenant:ten_A' },
          ),
          record(
            attemptOf('dlv_000002_0', 'ten_A', 'ep_1', 1, t, 'delivery_failure'),
            'w1',
            { status: 'failed', reason: 'budget spent' },
            { breakerScope: 'tenant:ten_A' },
          ),
          record(
            attemptOf('dlv_000001_1', 'ten_A', 'ep_2', 1, t, 'success'),
            'w1',
            { status: 'succeeded' },
            { breakerScope: 'tenant:ten_A', replayId: 'rpl_1' },
          ),
          // leased by w1, recorded by a worker whose lease was lost: the attempt is kept, the state is not touched
          record(attemptOf('dlv_000003_0', 'ten_A', 'ep_2', 1, t, 'success'), 'w-stale', { status: 'succeeded' }),
        ],
        t + 20,
      );
      assert.deepEqual(
        transitions.map((x) => [x.endpointId, x.from, x.to]),
        [['ep_1', 'active', 'degraded']],
      );
      const d1 = await store.reporting.getDelivery('ten_A', 'dlv_000001_0');
      assert.deepEqual(
        [
          d1?.status,
          d1?.nextAttemptAt,
          d1?.attemptCount,
          d1?.fastFailures,
          d1?.firstAttemptAt,
          d1?.lastAttemptAt,
          d1?.leaseUntil,
        ],
        ['pending', t + S, 1, 1, t, t, null],
      );
      const d2 = await store.reporting.getDelivery('ten_A', 'dlv_000002_0');
      assert.deepEqual([d2?.status, d2?.terminalReason, d2?.nextAttemptAt], ['failed', 'budget spent', null]);
      assert.equal((await store.reporting.getDelivery('ten_A', 'dlv_000001_1'))?.status, 'succeeded');
      assert.equal(
        (await store.reporting.getDelivery('ten_A', 'dlv_000003_0'))?.status,
        'delivering',
        'lost lease: the holder decides',
      );
      const attempts = await store.reporting.listAttempts('dlv_000001_0');
      assert.equal(attempts.length, 1);
      assert.deepEqual(attempts[0], attemptOf('dlv_000001_0', 'ten_A', 'ep_1', 1, t, 'delivery_failure'));
      const ep1 = await store.catalog.getEndpoint('ten_A', 'ep_1');
      assert.deepEqual([ep1?.status, ep1?.failingSince, ep1?.consecutiveFailedEvents], ['degraded', t + 12, 2]);
      assert.deepEqual(await store.breakers.breakerWindow('tenant:ten_A', t - MIN), { deliveries: 3, failures: 2 });
      const rpl = await store.replays.getReplay('ten_A', 'rpl_1');
      assert.deepEqual([rpl?.attempted, rpl?.succeeded, rpl?.failed], [1, 1, 0]);
      // a success clears degradation
      const [again] = await store.queue.claimDue({
        now: t + S,
        limit: 10,
        leaseUntil: t + MIN,
        workerId: 'w1',
        saturatedEndpoints: [],
      });
      const tr = await store.queue.recordAttempts(
        [record(attemptOf(again.delivery.id, 'ten_A', 'ep_1', 2, t + S, 'success'), 'w1', { status: 'succeeded' })],
        t + S,
      );
      assert.deepEqual(
        tr.map((x) => [x.from, x.to, x.reason]),
        [['degraded', 'active', 'recovered']],
      );
      assert.deepEqual(await store.queue.recordAttempts([], t), []);
    },
  );

  withStore(
    'recordAttempts: deliveries deleted mid-flight (endpoint, tenant) fail no other record of the batch',
    async (store) => {
      await setup(store);
      await store.catalog.createTenant(tenant('ten_B'));
      await store.catalog.createEndpoint(endpoint('ep_B', 'ten_B'), secret('sec_B', 'ep_B'));
      await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1', 'ep_2']), newEvent('ten_B', 2, ['ep_B'])]);
      const claimed = await store.queue.claimDue({
        now: T0,
        limit: 10,
        leaseUntil: T0 + MIN,
        workerId: 'w1',
        saturatedEndpoints: [],
      });
      assert.equal(claimed.length, 3);
      assert.equal(await store.catalog.deleteEndpoint('ten_A', 'ep_2'), true);
      assert.equal(await store.catalog.deleteTenant('ten_B'), true);
      const t = T0 + 100;
      await store.queue.recordAttempts(
        [
          record(
            attemptOf('dlv_000001_1', 'ten_A', 'ep_2', 1, t, 'success'),
            'w1',
            { status: 'succeeded' },
            { breakerScope: 'tenant:ten_A' },
          ),
          record(
            attemptOf('dlv_000001_0', 'ten_A', 'ep_1', 1, t, 'success'),
            'w1',
            { status: 'succeeded' },
            { breakerScope: 'tenant:ten_A' },
          ),
          record(attemptOf('dlv_000002_0', 'ten_B', 'ep_B', 1, t, 'delivery_failure'), 'w1', {
            status: 'pending',
            nextAttemptAt: t + S,
            ladder: 'fast',
          }),
        ],
        t,
      );
      const kept = await store.reporting.getDelivery('ten_A', 'dlv_000001_0');
      assert.deepEqual([kept?.status, kept?.attemptCount], ['succeeded', 1]);
      assert.equal((await store.reporting.listAttempts('dlv_000001_0')).length, 1);
      assert.equal(await store.reporting.getDelivery('ten_A', 'dlv_000001_1'), null);
      assert.deepEqual(
        await store.reporting.listAttempts('dlv_000001_1'),
        [],
        'no attempt row for a vanished delivery',
      );
      assert.deepEqual(await store.reporting.listAttempts('dlv_000002_0'), []);
      assert.deepEqual(await store.reporting.countByStatus(), {
        pending: 0,
        delivering: 0,
        held: 0,
        succeeded: 1,
        failed: 0,
        skipped: 0,
      });
      assert.deepEqual(await store.queue.existingEndpoints(['ep_1', 'ep_2', 'ep_B']), ['ep_1']);
      assert.deepEqual(await store.queue.existingEndpoints([]), []);
    },
  );

  withStore(
    'recordAttempts is idempotent: a retried batch changes nothing, even once the delivery is leased again',
    async (store) => {
      await setup(store);
      await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1', 'ep_2'])]);
      await store.queue.claimDue({ now: T0, limit: 10, leaseUntil: T0 + MIN, workerId: 'w1', saturatedEndpoints: [] });
      const t = T0 + 100;
      const batch = [
        record(
          attemptOf('dlv_000001_0', 'ten_A', 'ep_1', 1, t, 'delivery_failure'),
          'w1',
          { status: 'pending', nextAttemptAt: t + S, ladder: 'fast' },
          { breakerScope: 'tenant:ten_A' },
        ),
        record(
          attemptOf('dlv_000001_1', 'ten_A', 'ep_2', 1, t, 'success'),
          'w1',
          { status: 'succeeded' },
          { breakerScope: 'tenant:ten_A' },
        ),
      ];
      await store.queue.recordAttempts(batch, t);
      // The first commit landed but its caller saw an error; meanwhile the same worker leased the retry.
      const [again] = await store.queue.claimDue({
        now: t + S,
        limit: 10,
        leaseUntil: t + MIN,
        workerId: 'w1',
        saturatedEndpoints: [],
      });
      assert.equal(again.delivery.id, 'dlv_000001_0');
      await store.queue.recordAttempts(batch, t + 2 * S);
      const d = await store.reporting.getDelivery('ten_A', 'dlv_000001_0');
      assert.deepEqual(
        [d?.status, d?.attemptCount, d?.leaseUntil],
        ['delivering', 1, t + MIN],
        'the new lease is untouched',
      );
      assert.equal((await store.reporting.listAttempts('dlv_000001_0')).length, 1);
      assert.equal((await store.reporting.listAttempts('dlv_000001_1')).length, 1);
      assert.equal((await store.reporting.getDelivery('ten_A', 'dlv_000001_1'))?.attemptCount, 1);
    },
  );
}
