// A dead endpoint must not slow other tenants: real time, a receiver that never answers, a healthy one beside it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { systemClock } from '../src/clock.ts';
import { within } from '../testing/deadline.ts';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';

test("a hanging tenant does not delay another tenant's deliveries", { timeout: 50_000 }, async () => {
  const t = await testEngine({ clock: systemClock as never });
  let capFilled!: () => void;
  const filled = new Promise<void>((r) => (capFilled = r));
  const dead = await startReceiver((n) => {
    if (n === 20) capFilled();
    return 'hang';
  });
  let allArrived!: () => void;
  const arrived = new Promise<void>((r) => (allArrived = r));
  const healthy = await startReceiver((n) => {
    if (n === 20) allArrived();
    return 200;
  });
  try {
    const now = Date.now();
    await t.store.catalog.createTenant({
      id: 'ten_OTHER',
      name: 'Other',
      ownerEmails: [],
      operationsEndpointId: null,
      notifyEmail: false,
      createdAt: now,
      updatedAt: now,
    });
    // A send to the dead endpoint only ends at its 60 s deadline, beyond this test's 50 s timeout: if the healthy
    // tenant's deliveries queued behind those sends, they could not arrive before the test fails.
    await t.engine.endpoints.create(t.tenantId, { url: dead.url, policy: 'payments', timeout_ms: 60_000 });
    await t.engine.endpoints.create('ten_OTHER', { url: healthy.url, policy: 'payments' });
    t.engine.start();
    await t.engine.events.acceptMany(
      t.tenantId,
      Array.from({ length: 200 }, (_, i) => ({ type: 'payment.status_changed', data: { status: 'paid', i } })),
    );
    // Let the dead endpoint fill its concurrency cap first.
    await within('the dead endpoint to hold 20 requests', 30_000, filled);
    await t.engine.events.acceptMany(
      'ten_OTHER',
      Array.from({ length: 20 }, (_, i) => ({ type: 'payment.status_changed', data: { status: 'paid', i } })),
    );
    await within("the healthy tenant's 20 deliveries to arrive", 30_000, arrived);
    assert.equal(
      dead.hanging,
      20,
      'all 20 sends to the dead endpoint were still waiting when the healthy tenant was served',
    );
    assert.equal(dead.received.length, 20, 'the dead endpoint holds at most its concurrency cap');
  } finally {
    await dead.close();
    await healthy.close();
    await t.close();
  }
});
