// Retry now through the engine (docs/rules.md#retry-now): a retried delivery is sent as its next attempt on its ladder,
// so retrying never buys more attempts than its policy allows; a delivery in flight or finished is refused, also when
// it changed between the operation's read and its write.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Delivery } from '../src/domain.ts';
import { isHooklineError } from '../src/errors.ts';
import type { Store } from '../src/store/store.ts';
import { tempStore, testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';
import { MIN, S } from '../testing/time.ts';

async function refused(p: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(p, (e) => isHooklineError(e) && e.code === code);
}

test('retry now keeps the ladder: brief allows 4 attempts, and 4 retries in a row send 4, then it has failed', async () => {
  const t = await testEngine();
  const rx = await startReceiver(() => 503, { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'brief' });
    const [r] = await t.engine.events.acceptMany(t.tenantId, [{ event_id: 'e1', type: 'a.b', data: {} }]);
    if (r instanceof Error) throw r;
    const id = r.deliveries[0].id;
    await t.engine.runDue();
    const seen: Array<[string, number, number, number | null]> = [];
    const look = async () => {
      const d = (await t.store.reporting.getDelivery(t.tenantId, id)) as Delivery;
      const wait = d.nextAttemptAt === null ? null : d.nextAttemptAt - t.clock.now();
      seen.push([d.status, d.attemptCount, d.fastFailures, wait]);
    };
    await look();
    // Three retries, each the next attempt on brief's ladder (30 s, 5 min, 30 min): the clock never moves.
    for (let i = 0; i < 3; i++) {
      const moved = await t.engine.deliveries.retry(t.tenantId, id);
      assert.equal(moved.nextAttemptAt, t.clock.now());
      await t.engine.runDue();
      await look();
    }
    assert.deepEqual(seen, [
      ['pending', 1, 1, 30 * S],
      ['pending', 2, 2, 5 * MIN],
      ['pending', 3, 3, 30 * MIN],
      ['failed', 4, 4, null],
    ]);
    assert.equal(rx.received.length, 4, 'no more sends than the policy allows');
    await refused(t.engine.deliveries.retry(t.tenantId, id), 'delivery_finished');
    const detail = await t.engine.deliveries.detail(t.tenantId, id);
    assert.deepEqual(
      detail.attempts.map((a) => a.n),
      [1, 2, 3, 4],
    );
    // The endpoint's retry keeps the ladder the same way.
    const [r2] = await t.engine.events.acceptMany(t.tenantId, [{ event_id: 'e2', type: 'a.b', data: {} }]);
    if (r2 instanceof Error) throw r2;
    await t.engine.runDue();
    assert.deepEqual(await t.engine.endpoints.retry(t.tenantId, endpoint.id), { moved: 1 });
    await t.engine.runDue();
    const d2 = (await t.store.reporting.getDelivery(t.tenantId, r2.deliveries[0].id)) as Delivery;
    assert.deepEqual([d2.attemptCount, d2.fastFailures, (d2.nextAttemptAt ?? 0) - t.clock.now()], [2, 2, 5 * MIN]);
  } finally {
    await rx.close();
    await t.close();
  }
});

/** A store whose next getDelivery of `stale.id` answers `stale.view`: what a read just before a change saw. */
function withStaleRead(store: Store) {
  const stale: { id: string; view: Delivery | null } = { id: '', view: null };
  const reporting = {
    ...store.reporting,
    async getDelivery(tenantId: string, deliveryId: string) {
      const view = deliveryId === stale.id ? stale.view : null;
      stale.view = view === null ? stale.view : null;
      return view ?? store.reporting.getDelivery(tenantId, deliveryId);
    },
  };
  const proxied = new Proxy(store, {
    get(target, prop) {
      if (prop === 'reporting') return reporting;
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { store: proxied, stale };
}

test("a delivery that finished between retry now's read and its write is refused, not moved", async () => {
  const s = await tempStore();
  const { store, stale } = withStaleRead(s.store);
  const t = await testEngine({ store });
  let answer = 503;
  const rx = await startReceiver(() => answer, { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'brief' });
    const [r] = await t.engine.events.acceptMany(t.tenantId, [{ event_id: 'e1', type: 'a.b', data: {} }]);
    if (r instanceof Error) throw r;
    const target = r.deliveries[0].id;
    await t.engine.runDue();
    const pending = (await s.store.reporting.getDelivery(t.tenantId, target)) as Delivery;
    assert.equal(pending.status, 'pending');
    // It succeeds on its own (its rung comes), while a retry read it as still pending.
    answer = 200;
    t.clock.set(pending.nextAttemptAt as number);
    await t.engine.runDue();
    assert.equal((await s.store.reporting.getDelivery(t.tenantId, target))?.status, 'succeeded');
    Object.assign(stale, { id: target, view: pending });
    await refused(t.engine.deliveries.retry(t.tenantId, target), 'delivery_finished');
    assert.equal(stale.view, null, 'the retry read the stale view first');
    const after = (await s.store.reporting.getDelivery(t.tenantId, target)) as Delivery;
    assert.deepEqual([after.status, after.nextAttemptAt, after.attemptCount], ['succeeded', null, 2]);
    await t.engine.runDue();
    assert.equal(rx.received.length, 2, 'no third send');
  } finally {
    await rx.close();
    await t.close();
    await s.cleanup();
  }
});
