// The age limit is the dispatcher's admission (docs/rules.md#age-limit): a custom gate that holds forever cannot keep a delivery alive past it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AdmissionGate } from '../src/dispatch/admission.ts';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';
import { settle } from '../testing/settle.ts';
import { DAY } from '../testing/time.ts';

test('a custom gate that holds forever still has its held deliveries failed at the 30-day age limit', async () => {
  let admitted = 0;
  const holdForever: AdmissionGate = {
    admit: async (_c, _policy, now) => (admitted++, { kind: 'hold', until: now + 365 * DAY }),
    afterAttempt: async () => {},
    scopeKey: () => null,
  };
  const t = await testEngine({ gate: holdForever });
  const rx = await startReceiver(() => 200, { clock: t.clock });
  try {
    const holds: number[] = [];
    t.engine.addObserver({ held: (_c, until) => holds.push(until) });
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments' }); // payments: 30-day age limit
    const accepted = await t.engine.events.accept(t.tenantId, {
      type: 'payment.status_changed',
      data: { status: 'paid' },
    });
    const id = accepted.deliveries[0].id;
    const createdAt = t.clock.now();
    await settle(t.engine, t.clock, { until: createdAt + 31 * DAY });
    const d = await t.store.reporting.getDelivery(t.tenantId, id);
    assert.equal(d?.status, 'failed', 'ended, not held on past the limit');
    assert.equal(d?.terminalReason, '30-day age limit reached');
    assert.equal(d?.attemptCount, 0, 'no attempt was spent');
    assert.equal(rx.received.length, 0, 'nothing was sent');
    assert.ok(admitted >= 1, 'the gate was asked');
    // The gate's hold was cut to just past the limit, so the delivery came back in time to fail.
    assert.deepEqual(holds, [createdAt + 30 * DAY + 1]);
    assert.ok(t.clock.now() <= createdAt + 30 * DAY + 1, `settled at +${(t.clock.now() - createdAt) / DAY} days`);
  } finally {
    await rx.close();
    await t.close();
  }
});
