// The held period an attempt records (docs/rules.md#breaker-hold) through the whole engine on a virtual clock: the
// breaker opens, deliveries are held (and held again at the probe time), the probe succeeds, and each delivery's next
// attempt, read back through the engine, carries the virtual times its hold began and the breaker's close ended it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startReceiver } from '../testing/receiver.ts';
import { settle } from '../testing/settle.ts';
import { breakerEngine, events, MIN } from './breaker-fixtures.ts';

test('after a successful probe, every held delivery’s next attempt records when its hold began and the close ended it', async () => {
  const t = await breakerEngine();
  const rx = await startReceiver((n) => (n <= 5 ? 500 : 200), { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments' });
    const t0 = t.clock.now();
    const first = await t.engine.events.acceptMany(t.tenantId, events(5));
    await t.engine.runDue(); // five failures open the tenant's breaker (5-minute pause)
    assert.equal((await t.engine.breakers.status({ tenantId: t.tenantId })).state, 'open');
    t.clock.advance(MIN);
    const late = await t.engine.events.acceptMany(t.tenantId, events(3, 'late'));
    await t.engine.runDue(); // the first five's retries and the late three are held now, at t0 + 1 min
    assert.equal((await t.store.reporting.countByStatus()).held, 8);
    // At t0 + 5 min one of them is the probe and the others are held again (their period keeps its start); the
    // probe's 200 closes the breaker, which releases them at once.
    await settle(t.engine, t.clock);
    assert.deepEqual(
      t.transitions.map((x) => `${x.from}>${x.to}`),
      ['closed>open', 'open>probing', 'probing>closed'],
    );

    const periods = async (r: (typeof first)[number]) => {
      if (r instanceof Error) throw r;
      const { attempts } = await t.engine.deliveries.detail(t.tenantId, r.deliveries[0].id);
      return attempts.map((a) => [a.trigger, a.ladder, a.heldFrom ?? null, a.heldUntil ?? null]);
    };
    const [from, until] = [t0 + MIN, t0 + 5 * MIN];
    const probeOrReleased = (trigger: unknown) => trigger === 'probe' || trigger === 'scheduled';
    for (const r of first) {
      const [a1, a2, ...rest] = await periods(r);
      assert.deepEqual(a1, ['scheduled', 'fast', null, null], 'the first attempt was not held');
      assert.ok(probeOrReleased(a2?.[0]));
      assert.deepEqual(a2?.slice(1), ['fast', from, until]);
      assert.deepEqual(rest, []);
    }
    for (const r of late) {
      const [a1, ...rest] = await periods(r);
      assert.ok(probeOrReleased(a1?.[0]));
      assert.deepEqual(a1?.slice(1), ['fast', from, until]);
      assert.deepEqual(rest, []);
    }
    assert.equal((await t.store.reporting.countByStatus()).succeeded, 8);
  } finally {
    await rx.close();
    await t.close();
  }
});
