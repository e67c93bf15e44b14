// Store conformance, claims and leases: claimDue, caps, concurrent claims, lease release and hand-back, held deliveries.
import assert from 'node:assert/strict';
import { attemptOf, MIN, newEvent, record, S, setup, T0, type WithStore } from './fixtures.ts';

export function claimsLeasesConformance(withStore: WithStore): void {
  withStore(
    'claimDue leases due work once, with everything a worker needs; leases expire back to pending',
    async (store) => {
      await setup(store);
      await store.events.acceptEvents([
        newEvent('ten_A', 1, ['ep_1']),
        newEvent('ten_A', 2, ['ep_2']),
        newEvent('ten_A', 3, ['ep_1'], { at: T0 + 5 * S }),
      ]);
      assert.equal(await store.queue.nextDueAt(), T0);
      const claimed = await store.queue.claimDue({
        now: T0,
        limit: 10,
        leaseUntil: T0 + MIN,
        workerId: 'w1',
        saturatedEndpoints: [],
      });
      assert.deepEqual(
        claimed.map((c) => c.delivery.id).sort(),
        ['dlv_000001_0', 'dlv_000002_0'],
        'only what is due now',
      );
      const c1 = claimed.find((c) => c.delivery.id === 'dlv_000001_0')!;
      assert.equal(c1.delivery.status, 'delivering');
      assert.equal(c1.delivery.leaseUntil, T0 + MIN);
      assert.deepEqual(c1.body, Buffer.from(JSON.stringify({ n: 1 })));
      assert.equal(c1.endpoint.id, 'ep_1');
      assert.equal(c1.endpoint.url, 'https://example.test/ep_1');
      assert.equal(c1.endpoint.version, 1);
      assert.equal(c1.replayId, null);
      assert.equal(c1.delivery.eventId, 'e-1');
      assert.equal(await store.queue.countInFlight('ep_1'), 1);
      assert.deepEqual(await store.reporting.countQueued(), { pending: 1, delivering: 2, held: 0 });
      assert.deepEqual(
        await store.queue.claimDue({
          now: T0,
          limit: 10,
          leaseUntil: T0 + MIN,
          workerId: 'w2',
          saturatedEndpoints: [],
        }),
        [],
        'a lease is held once',
      );
      assert.equal(await store.queue.nextDueAt(), T0 + 5 * S);

      assert.equal(await store.queue.releaseExpiredLeases(T0 + MIN - 1), 0);
      assert.equal(await store.queue.releaseExpiredLeases(T0 + MIN + 1), 2);
      assert.equal(await store.queue.countInFlight('ep_1'), 0);
      const again = await store.queue.claimDue({
        now: T0 + MIN + 1,
        limit: 10,
        leaseUntil: T0 + 2 * MIN,
        workerId: 'w2',
        saturatedEndpoints: ['ep_2'],
      });
      assert.deepEqual(
        again.map((c) => c.delivery.id).sort(),
        ['dlv_000001_0', 'dlv_000003_0'],
        'saturated endpoints are skipped',
      );
    },
  );

  withStore('claimDue skips the endpoints a worker reports saturated', async (store) => {
    await setup(store, 3);
    await store.events.acceptEvents(Array.from({ length: 4 }, (_, i) => newEvent('ten_A', i + 1, ['ep_1', 'ep_2'])));
    const got = await store.queue.claimDue({
      now: T0,
      limit: 100,
      leaseUntil: T0 + MIN,
      workerId: 'w1',
      saturatedEndpoints: ['ep_1'],
    });
    assert.ok(got.length > 0);
    assert.ok(got.every((c) => c.endpoint.id === 'ep_2'));
  });

  withStore("claimDue respects each endpoint's max concurrency, counting leases already out", async (store, t) => {
    // Only where the claim itself holds caps across workers; SQLite's one worker holds them in its lanes
    // (dispatch.realtime.test.ts checks those). Reported as skipped there, never as a pass.
    if (!store.capsAcrossWorkers)
      return t.skip("this store's claim does not hold caps across workers (its one worker's lanes do)");
    await setup(store, 3);
    await store.events.acceptEvents(Array.from({ length: 10 }, (_, i) => newEvent('ten_A', i + 1, ['ep_1', 'ep_2'])));
    const first = await store.queue.claimDue({
      now: T0,
      limit: 100,
      leaseUntil: T0 + MIN,
      workerId: 'w1',
      saturatedEndpoints: [],
    });
    const per = (cs: typeof first) =>
      cs.reduce<Record<string, number>>((m, c) => ((m[c.endpoint.id] = (m[c.endpoint.id] ?? 0) + 1), m), {});
    assert.deepEqual(per(first), { ep_1: 3, ep_2: 3 });
    assert.deepEqual(
      await store.queue.claimDue({ now: T0, limit: 100, leaseUntil: T0 + MIN, workerId: 'w2', saturatedEndpoints: [] }),
      [],
      'caps hold for another worker',
    );
    const done = first.filter((c) => c.endpoint.id === 'ep_1').slice(0, 2);
    await store.queue.recordAttempts(
      done.map((c) =>
        record(attemptOf(c.delivery.id, 'ten_A', 'ep_1', 1, T0, 'success'), 'w1', { status: 'succeeded' }),
      ),
      T0,
    );
    const second = await store.queue.claimDue({
      now: T0,
      limit: 100,
      leaseUntil: T0 + MIN,
      workerId: 'w2',
      saturatedEndpoints: [],
    });
    assert.deepEqual(per(second), { ep_1: 2 });
    // The two freed slots go to the oldest waiting deliveries of ep_1; its third lease is still counted.
    assert.deepEqual(
      first
        .filter((c) => c.endpoint.id === 'ep_1')
        .map((c) => c.delivery.id)
        .sort(),
      ['dlv_000001_0', 'dlv_000002_0', 'dlv_000003_0'],
    );
    assert.deepEqual(second.map((c) => c.delivery.id).sort(), ['dlv_000004_0', 'dlv_000005_0']);
  });

  withStore('concurrent claims never lease the same delivery twice', async (store) => {
    await setup(store, 1000);
    await store.events.acceptEvents(Array.from({ length: 300 }, (_, i) => newEvent('ten_A', i + 1, ['ep_1', 'ep_2'])));
    const results = await Promise.all(
      ['w1', 'w2', 'w3', 'w4'].map((w) =>
        store.queue.claimDue({ now: T0, limit: 100, leaseUntil: T0 + MIN, workerId: w, saturatedEndpoints: [] }),
      ),
    );
    const ids = results.flat().map((c) => c.delivery.id);
    assert.equal(new Set(ids).size, ids.length);
    let more = ids.length;
    for (let i = 0; i < 10 && more < 600; i++)
      more += (
        await store.queue.claimDue({
          now: T0,
          limit: 200,
          leaseUntil: T0 + MIN,
          workerId: 'w5',
          saturatedEndpoints: [],
        })
      ).length;
    assert.equal(more, 600);
  });

  withStore("releaseAllLeases: a one-worker store's restart takes back every lease at once, due now", async (store) => {
    await setup(store);
    await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1', 'ep_2']), newEvent('ten_A', 2, ['ep_1'])]);
    await store.queue.claimDue({
      now: T0,
      limit: 2,
      leaseUntil: T0 + 90 * S,
      workerId: 'w-dead',
      saturatedEndpoints: [],
    });
    assert.equal(await store.queue.releaseExpiredLeases(T0 + S), 0, 'not expired');
    assert.equal(await store.queue.releaseAllLeases(T0 + S), 2);
    const counts = await store.reporting.countByStatus();
    assert.deepEqual([counts.pending, counts.delivering], [3, 0]);
    const claimed = await store.queue.claimDue({
      now: T0 + S,
      limit: 10,
      leaseUntil: T0 + MIN,
      workerId: 'w-new',
      saturatedEndpoints: [],
    });
    assert.equal(claimed.length, 3);
  });

  withStore(
    'a test delivery is inserted leased; only its lease holder ends it; a lapsed one goes to the dispatcher',
    async (store) => {
      await setup(store);
      const ev = newEvent('ten_A', 1, ['ep_1', 'ep_2']);
      ev.deliveries[0].lease = { workerId: 'w-api', until: T0 + MIN };
      ev.deliveries[1].lease = { workerId: 'w-api', until: T0 + MIN };
      const [r] = await store.events.acceptEvents([ev]);
      assert.equal(r.kind === 'created' && r.deliveries[0].status, 'delivering');
      const leased = await store.reporting.getDelivery('ten_A', 'dlv_000001_0');
      assert.deepEqual([leased?.status, leased?.leaseUntil], ['delivering', T0 + MIN]);
      assert.deepEqual(
        await store.queue.claimDue({
          now: T0,
          limit: 10,
          leaseUntil: T0 + MIN,
          workerId: 'w1',
          saturatedEndpoints: [],
        }),
        [],
        'not claimable while its sender holds it',
      );
      const health = { rule: { pauseOnGone: false }, countsFailure: false, countsSuccess: true };
      const a0 = { ...attemptOf('dlv_000001_0', 'ten_A', 'ep_1', 1, T0 + 5, 'success'), trigger: 'test' as const };
      await store.queue.recordTestAttempt(a0, health, T0 + 6, 'w-api');
      const done = await store.reporting.getDelivery('ten_A', 'dlv_000001_0');
      assert.deepEqual([done?.status, done?.attemptCount, done?.leaseUntil], ['succeeded', 1, null]);
      // The other one's sender died: its lease lapses, a worker takes it; the late record keeps only its attempt.
      assert.equal(await store.queue.releaseExpiredLeases(T0 + MIN + 1), 1);
      const [taken] = await store.queue.claimDue({
        now: T0 + MIN + 1,
        limit: 10,
        leaseUntil: T0 + 2 * MIN,
        workerId: 'w1',
        saturatedEndpoints: [],
      });
      assert.equal(taken.delivery.id, 'dlv_000001_1');
      const a1 = { ...attemptOf('dlv_000001_1', 'ten_A', 'ep_2', 1, T0 + 5, 'success'), trigger: 'test' as const };
      await store.queue.recordTestAttempt(a1, health, T0 + MIN + 2, 'w-api');
      assert.equal(
        (await store.reporting.getDelivery('ten_A', 'dlv_000001_1'))?.status,
        'delivering',
        'the new holder decides',
      );
      assert.equal((await store.reporting.listAttempts('dlv_000001_1')).length, 1);
    },
  );

  withStore(
    "a stopping worker hands back leases it never started, due as before; others' leases stay",
    async (store) => {
      await setup(store);
      await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1', 'ep_2'], { at: T0 - 5 * S })]);
      const claimed = await store.queue.claimDue({
        now: T0,
        limit: 10,
        leaseUntil: T0 + MIN,
        workerId: 'w1',
        saturatedEndpoints: [],
      });
      assert.equal(claimed.length, 2);
      assert.equal(
        await store.queue.releaseLeases(['dlv_000001_0', 'dlv_000001_1'], 'w-other', T0),
        0,
        'only the lease holder releases',
      );
      assert.equal(await store.queue.releaseLeases(['dlv_000001_0'], 'w1', T0), 1);
      const back = await store.reporting.getDelivery('ten_A', 'dlv_000001_0');
      assert.deepEqual(
        [back?.status, back?.nextAttemptAt, back?.leaseUntil, back?.attemptCount],
        ['pending', T0 - 5 * S, null, 0],
      );
      assert.equal((await store.reporting.getDelivery('ten_A', 'dlv_000001_1'))?.status, 'delivering');
      assert.equal(await store.queue.releaseLeases([], 'w1', T0), 0);
      const again = await store.queue.claimDue({
        now: T0,
        limit: 10,
        leaseUntil: T0 + MIN,
        workerId: 'w2',
        saturatedEndpoints: [],
      });
      assert.deepEqual(
        again.map((c) => c.delivery.id),
        ['dlv_000001_0'],
      );
    },
  );

  withStore('hold, end, release held; test attempts', async (store) => {
    await setup(store);
    await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1', 'ep_2']), newEvent('ten_A', 2, ['ep_1'])]);
    const claimed = await store.queue.claimDue({
      now: T0,
      limit: 10,
      leaseUntil: T0 + MIN,
      workerId: 'w1',
      saturatedEndpoints: [],
    });
    assert.equal(claimed.length, 3);
    await store.queue.holdDeliveries(['dlv_000001_0', 'dlv_000001_1'], 'w-other', T0 + 30 * S, T0);
    assert.equal(
      (await store.reporting.getDelivery('ten_A', 'dlv_000001_0'))?.status,
      'delivering',
      'only the lease holder holds',
    );
    await store.queue.holdDeliveries(['dlv_000001_0', 'dlv_000001_1'], 'w1', T0 + 30 * S, T0);
    const held = await store.reporting.getDelivery('ten_A', 'dlv_000001_0');
    assert.deepEqual([held?.status, held?.nextAttemptAt, held?.attemptCount], ['held', T0 + 30 * S, 0]);
    assert.equal(await store.queue.nextDueAt(), T0 + 30 * S);
    await store.queue.endDeliveries(['dlv_000002_0'], 'w1', 'failed', 'endpoint_paused', T0);
    const sk = await store.reporting.getDelivery('ten_A', 'dlv_000002_0');
    assert.deepEqual([sk?.status, sk?.terminalReason, sk?.lastAttemptAt], ['failed', 'endpoint_paused', null]);
    assert.equal(await store.breakers.releaseHeld({ endpointId: 'ep_1' }, T0 + 1), 1);
    assert.equal((await store.reporting.getDelivery('ten_A', 'dlv_000001_0'))?.status, 'pending');
    assert.equal(await store.breakers.releaseHeld({ tenantId: 'ten_A' }, T0 + 2), 1);
    assert.equal((await store.reporting.getDelivery('ten_A', 'dlv_000001_1'))?.nextAttemptAt, T0 + 2);
    await store.queue.endDeliveries(['dlv_000001_1'], null, 'failed', 'age limit', T0 + 3);
    assert.equal((await store.reporting.getDelivery('ten_A', 'dlv_000001_1'))?.status, 'failed');
    await store.queue.endDeliveries(['dlv_000001_1'], null, 'skipped', 'x', T0 + 4);
    assert.equal(
      (await store.reporting.getDelivery('ten_A', 'dlv_000001_1'))?.status,
      'failed',
      'terminal stays terminal',
    );

    // a test delivery: its event and one attempt; success clears degradation
    await store.catalog.updateEndpoint('ten_A', 'ep_2', {}, T0);
    await store.events.acceptEvents([newEvent('ten_A', 3, ['ep_2'])]);
    await store.queue.recordAttempts([], T0);
    const a = { ...attemptOf('dlv_000003_0', 'ten_A', 'ep_2', 1, T0 + 5, 'success'), trigger: 'test' as const };
    await store.queue.recordTestAttempt(
      a,
      { rule: { pauseOnGone: false }, countsFailure: false, countsSuccess: true },
      T0 + 6,
    );
    const td = await store.reporting.getDelivery('ten_A', 'dlv_000003_0');
    assert.deepEqual([td?.status, td?.attemptCount, td?.lastAttemptAt], ['succeeded', 1, T0 + 5]);
    assert.equal((await store.reporting.listAttempts('dlv_000003_0'))[0].trigger, 'test');
  });
}
