// Store conformance, rate limits and learned concurrency: the claim's shared token bucket (docs/rules.md#rate-limit)
// holds across workers and defers what it does not allow without an attempt; effective_concurrency round-trips.
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/store.ts';
import { endpoint, MIN, newEvent, S, secret, T0, tenant, type WithStore } from './fixtures.ts';

/** ten_A with ep_1 limited to `rate`/s and ep_2 unlimited, both with a cap of 50. */
async function rated(store: Store, rate: number): Promise<void> {
  await store.catalog.createTenant(tenant('ten_A'));
  await store.catalog.createEndpoint(
    endpoint('ep_1', 'ten_A', { maxConcurrency: 50, rateLimitPerS: rate }),
    secret('sec_1', 'ep_1'),
  );
  await store.catalog.createEndpoint(endpoint('ep_2', 'ten_A', { maxConcurrency: 50 }), secret('sec_2', 'ep_2'));
}

const claim = (store: Store, now: number, workerId: string, limit = 100) =>
  store.queue.claimDue({ now, limit, leaseUntil: now + MIN, workerId, saturatedEndpoints: [] });

export function rateLimitsConformance(withStore: WithStore): void {
  withStore(
    'a rate-limited endpoint is claimed only as its bucket allows; the rest is deferred un-attempted',
    async (store) => {
      await rated(store, 10); // a bucket of 1, one token per 100 ms
      await store.events.acceptEvents(Array.from({ length: 20 }, (_, i) => newEvent('ten_A', i + 1, ['ep_1', 'ep_2'])));
      const first = await claim(store, T0, 'w1');
      assert.equal(first.filter((c) => c.endpoint.id === 'ep_1').length, 1, 'one token');
      assert.equal(
        first.filter((c) => c.endpoint.id === 'ep_2').length,
        20,
        'an endpoint without a limit is not held back',
      );
      assert.equal(first.find((c) => c.endpoint.id === 'ep_1')!.endpoint.rateLimitPerS, 10);
      const page = await store.reporting.listDeliveries(
        { tenantId: 'ten_A', endpointId: 'ep_1', status: 'pending' },
        null,
        100,
      );
      assert.equal(page.items.length, 19);
      const dues = page.items.map((d) => d.nextAttemptAt!).sort((a, b) => a - b);
      assert.deepEqual(
        dues,
        Array.from({ length: 19 }, (_, i) => T0 + 100 * (i + 1)),
        'handed back once, one slot per token',
      );
      for (const d of page.items) {
        assert.equal(d.attemptCount, 0, 'a deferred delivery spent no attempt');
        assert.ok(d.leaseUntil === null);
      }
      assert.deepEqual(await claim(store, T0 + 50, 'w2'), [], 'another worker shares the empty bucket');
      const next = await claim(store, T0 + 100, 'w2');
      assert.equal(next.length, 1, 'the next token, 100 ms later, to whichever worker asks');
      assert.equal(next[0].delivery.attemptCount, 0);
    },
  );

  withStore(
    'a backlog the claim did not take is deferred too, once, one slot each after the claimed rows',
    async (store) => {
      await rated(store, 10);
      await store.events.acceptEvents(Array.from({ length: 20 }, (_, i) => newEvent('ten_A', i + 1, ['ep_1'])));
      assert.equal((await claim(store, T0, 'w1', 5)).length, 1);
      const page = await store.reporting.listDeliveries(
        { tenantId: 'ten_A', endpointId: 'ep_1', status: 'pending' },
        null,
        100,
      );
      const dues = page.items.map((d) => d.nextAttemptAt!).sort((a, b) => a - b);
      assert.deepEqual(
        dues,
        Array.from({ length: 19 }, (_, i) => T0 + 100 * (i + 1)),
      );
      assert.equal(await store.queue.nextDueAt(), T0 + 100, 'nothing of it is due before its next token');
    },
  );

  withStore(
    'over a second of claims by two workers, a 20/s endpoint is granted at most its burst + 20',
    async (store) => {
      await rated(store, 20);
      await store.events.acceptEvents(Array.from({ length: 60 }, (_, i) => newEvent('ten_A', i + 1, ['ep_1'])));
      let granted = 0;
      for (let t = 0; t <= S; t += 10) granted += (await claim(store, T0 + t, t % 20 === 0 ? 'w1' : 'w2')).length;
      // Burst max(1, ceil(20 / 10)) = 2, plus 20 tokens over the second.
      assert.ok(granted <= 2 + 20, `granted ${granted}`);
      assert.ok(granted >= 20, `granted ${granted}: the limit is also a rate the endpoint gets`);
    },
  );

  withStore('concurrent claims on one empty-bucket instant share one burst', async (store) => {
    await rated(store, 30); // a bucket of 3
    await store.events.acceptEvents(Array.from({ length: 40 }, (_, i) => newEvent('ten_A', i + 1, ['ep_1'])));
    const got = await Promise.all(Array.from({ length: 6 }, (_, i) => claim(store, T0, `w${i}`, 5)));
    assert.equal(got.flat().length, 3);
    assert.equal(new Set(got.flat().map((c) => c.delivery.id)).size, 3);
  });

  withStore(
    'the rate limit is saved, changed and cleared; effective_concurrency is recorded without an edit',
    async (store) => {
      await rated(store, 10);
      assert.equal((await store.catalog.getEndpoint('ten_A', 'ep_1'))!.rateLimitPerS, 10);
      assert.equal((await store.catalog.getEndpoint('ten_A', 'ep_2'))!.rateLimitPerS, null);
      assert.equal(
        (await store.catalog.updateEndpoint('ten_A', 'ep_1', { rateLimitPerS: 250 }, T0 + S))!.rateLimitPerS,
        250,
      );
      assert.equal((await store.catalog.getEndpoint('ten_A', 'ep_1'))!.rateLimitPerS, 250);
      assert.equal(
        (await store.catalog.updateEndpoint('ten_A', 'ep_1', { rateLimitPerS: null }, T0 + 2 * S))!.rateLimitPerS,
        null,
      );
      const before = (await store.catalog.getEndpoint('ten_A', 'ep_2'))!;
      assert.equal(before.effectiveConcurrency, null);
      await store.queue.setEffectiveConcurrency('ep_2', 4);
      const after = (await store.catalog.getEndpoint('ten_A', 'ep_2'))!;
      assert.equal(after.effectiveConcurrency, 4);
      assert.equal(after.version, before.version, 'not an edit');
      assert.equal(after.updatedAt, before.updatedAt);
      await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_2'])]);
      assert.equal(
        (await claim(store, T0, 'w1'))[0].endpoint.effectiveConcurrency,
        4,
        'a claim carries it: a restarted worker starts from it',
      );
      await store.queue.setEffectiveConcurrency('ep_2', null);
      assert.equal((await store.catalog.getEndpoint('ten_A', 'ep_2'))!.effectiveConcurrency, null);
    },
  );
}
