// Store conformance, breakers: breaker rows (compare-and-set) and the breaker window (per delivery, per scope, purge).
import assert from 'node:assert/strict';
import type { Attempt } from '../../src/domain.ts';
import { attemptOf, endpoint, MIN, newEvent, record, S, secret, T0, tenant, type WithStore } from './fixtures.ts';

export function breakersConformance(withStore: WithStore): void {
  withStore('breaker rows: insert once, compare-and-set, list; window reset', async (store) => {
    const row = {
      scopeKey: 'tenant:ten_A',
      tenantId: 'ten_A',
      state: 'open' as const,
      pauseMs: 5 * MIN,
      openedAt: T0,
      nextProbeAt: T0 + 5 * MIN,
      probeDeliveryId: null,
      updatedAt: T0,
    };
    assert.equal(await store.breakers.getBreaker('tenant:ten_A'), null);
    assert.equal(await store.breakers.saveBreaker(row, null), true);
    assert.equal(await store.breakers.saveBreaker({ ...row, state: 'closed' }, null), false, 'inserting twice loses');
    assert.deepEqual(await store.breakers.getBreaker('tenant:ten_A'), row);
    const probing = { ...row, state: 'probing' as const, probeDeliveryId: 'dlv_1', updatedAt: T0 + 1 };
    assert.equal(await store.breakers.saveBreaker(probing, T0), true);
    assert.equal(await store.breakers.saveBreaker({ ...row, updatedAt: T0 + 2 }, T0), false, 'a stale writer loses');
    assert.deepEqual(await store.breakers.getBreaker('tenant:ten_A'), probing);
    await store.breakers.saveBreaker({ ...row, scopeKey: 'endpoint:ep_1' }, null);
    await store.breakers.saveBreaker({ ...row, scopeKey: 'tenant:ten_B', tenantId: 'ten_B' }, null);
    assert.deepEqual(
      (await store.breakers.listBreakers('ten_A')).map((b) => b.scopeKey),
      ['endpoint:ep_1', 'tenant:ten_A'],
    );
    assert.deepEqual(await store.reporting.countBreakers(), { open: 2, probing: 1 }, 'over every tenant');

    await store.catalog.createTenant(tenant('ten_A'));
    await store.catalog.createEndpoint(endpoint('ep_1', 'ten_A'), secret('sec_1', 'ep_1'));
    await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1'])]);
    const [c] = await store.queue.claimDue({
      now: T0,
      limit: 1,
      leaseUntil: T0 + MIN,
      workerId: 'w',
      saturatedEndpoints: [],
    });
    await store.queue.recordAttempts(
      [
        record(
          attemptOf(c.delivery.id, 'ten_A', 'ep_1', 1, T0, 'delivery_failure'),
          'w',
          { status: 'pending', nextAttemptAt: T0 + S, ladder: 'fast' },
          { breakerScope: 'endpoint:ep_1' },
        ),
      ],
      T0,
    );
    assert.deepEqual(await store.breakers.breakerWindow('endpoint:ep_1', T0 - MIN), { deliveries: 1, failures: 1 });
    assert.deepEqual(
      await store.breakers.breakerWindow('endpoint:ep_1', T0 + MIN),
      { deliveries: 0, failures: 0 },
      'outside the window',
    );
    await store.breakers.resetBreakerWindow('endpoint:ep_1');
    assert.deepEqual(await store.breakers.breakerWindow('endpoint:ep_1', T0 - MIN), { deliveries: 0, failures: 0 });
  });

  withStore(
    'breaker window: each delivery counts once, by its latest attempt; reset per scope; old rows purged',
    async (store) => {
      await store.catalog.createTenant(tenant('ten_A'));
      await store.catalog.createEndpoint(endpoint('ep_1', 'ten_A'), secret('sec_1', 'ep_1'));
      await store.catalog.createEndpoint(endpoint('ep_2', 'ten_A'), secret('sec_2', 'ep_2'));
      await store.events.acceptEvents([
        newEvent('ten_A', 1, ['ep_1']),
        newEvent('ten_A', 2, ['ep_1']),
        newEvent('ten_A', 3, ['ep_2']),
      ]);
      const scope = 'tenant:ten_A';
      // One attempt of every due delivery at `at` (its next n), each answered by `outcome(id)`; all retry 1 s later.
      const round = async (at: number, outcome: (id: string) => Attempt['outcome'], _round: number) => {
        const claimed = await store.queue.claimDue({
          now: at,
          limit: 10,
          leaseUntil: at + MIN,
          workerId: 'w',
          saturatedEndpoints: [],
        });
        await store.queue.recordAttempts(
          claimed.map((c) =>
            record(
              attemptOf(c.delivery.id, 'ten_A', c.endpoint.id, c.delivery.attemptCount + 1, at, outcome(c.delivery.id)),
              'w',
              { status: 'pending', nextAttemptAt: at + S, ladder: 'fast' },
              { breakerScope: scope },
            ),
          ),
          at,
        );
        return claimed.length;
      };
      // Three rounds of retries: three deliveries, nine attempts; the window holds three deliveries.
      for (let i = 0; i < 3; i++) assert.equal(await round(T0 + i * S, () => 'delivery_failure', i + 1), 3);
      assert.deepEqual(await store.breakers.breakerWindow(scope, T0 - MIN), { deliveries: 3, failures: 3 });
      // A delivery's latest attempt replaces its earlier one: a success and a client error leave it counted, not failed.
      await round(
        T0 + 3 * S,
        (id) => (id === 'dlv_000001_0' ? 'success' : id === 'dlv_000002_0' ? 'client_error' : 'delivery_failure'),
        4,
      );
      assert.deepEqual(await store.breakers.breakerWindow(scope, T0 - MIN), { deliveries: 3, failures: 1 });
      // Windowed by each delivery's latest attempt: earlier attempts of a delivery still in the window do not matter.
      assert.deepEqual(await store.breakers.breakerWindow(scope, T0 + 3 * S), { deliveries: 3, failures: 1 });
      assert.deepEqual(await store.breakers.breakerWindow(scope, T0 + 3 * S + 1), { deliveries: 0, failures: 0 });

      // A lost lease's holder recording late does not count: the attempt is kept, the window is not touched.
      await store.queue.recordAttempts(
        [
          record(
            attemptOf('dlv_000003_0', 'ten_A', 'ep_2', 5, T0 + 4 * S, 'success'),
            'w-stale',
            { status: 'succeeded' },
            { breakerScope: scope },
          ),
        ],
        T0 + 4 * S,
      );
      assert.deepEqual(await store.breakers.breakerWindow(scope, T0 + 3 * S + 1), { deliveries: 0, failures: 0 });

      // Another scope's rows are its own; a reset clears one scope only.
      await store.events.acceptEvents([newEvent('ten_A', 4, ['ep_1'], { at: T0 + 10 * S })]);
      const late = T0 + 10 * S;
      const [c] = (
        await store.queue.claimDue({
          now: late,
          limit: 10,
          leaseUntil: late + MIN,
          workerId: 'w2',
          saturatedEndpoints: [],
        })
      ).filter((x) => x.delivery.id === 'dlv_000004_0');
      await store.queue.recordAttempts(
        [
          record(
            attemptOf(c.delivery.id, 'ten_A', 'ep_1', 1, late, 'delivery_failure'),
            'w2',
            { status: 'pending', nextAttemptAt: late + MIN, ladder: 'fast' },
            { breakerScope: 'endpoint:ep_1' },
          ),
        ],
        late,
      );
      assert.deepEqual(await store.breakers.breakerWindow('endpoint:ep_1', T0 - MIN), { deliveries: 1, failures: 1 });
      assert.deepEqual(await store.breakers.breakerWindow(scope, late), { deliveries: 0, failures: 0 });
      await store.breakers.resetBreakerWindow(scope);
      assert.deepEqual(await store.breakers.breakerWindow(scope, T0 - MIN), { deliveries: 0, failures: 0 });
      assert.deepEqual(await store.breakers.breakerWindow('endpoint:ep_1', T0 - MIN), { deliveries: 1, failures: 1 });

      // Purge: rows whose latest attempt is older than `before`, in every scope.
      await store.queue.releaseExpiredLeases(late + 2 * MIN); // the three the claim above took along
      for (let i = 0; i < 2; i++) await round(late + (i + 2) * MIN, () => 'delivery_failure', 5 + i);
      assert.deepEqual(await store.breakers.breakerWindow(scope, T0 - MIN), { deliveries: 4, failures: 4 });
      assert.equal(await store.retention.purgeBreakerWindow(late), 0);
      assert.equal(await store.retention.purgeBreakerWindow(late + 1), 1, "the endpoint scope's row");
      assert.equal(await store.retention.purgeBreakerWindow(late + 3 * MIN + 1), 4);
      assert.deepEqual(await store.breakers.breakerWindow(scope, T0 - MIN), { deliveries: 0, failures: 0 });
    },
  );
}
