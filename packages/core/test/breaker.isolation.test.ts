// A dead endpoint must not slow other tenants: real time, a receiver that never answers, a healthy one beside it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../src/clock.ts';
import { startReceiver, testEngine } from './harness.ts';

test('a hanging tenant does not delay another tenant\'s deliveries', { timeout: 20_000 }, async () => {
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
    await t.store.createTenant({ id: 'ten_OTHER', name: 'Other', ownerEmails: [], operationsEndpointId: null, notifyEmail: false, createdAt: now, updatedAt: now });
    await t.engine.createEndpoint(t.tenantId, { url: dead.url, policy: 'payments', timeout_ms: 5000 });
    await t.engine.createEndpoint('ten_OTHER', { url: healthy.url, policy: 'payments' });
    t.engine.start();
    await t.engine.acceptEvents(t.tenantId, Array.from({ length: 200 }, (_, i) => ({ type: 'payment.status_changed', data: { status: 'paid', i } })));
    // Let the dead endpoint fill its concurrency cap first.
    await filled;
    const started = Date.now();
    await t.engine.acceptEvents('ten_OTHER', Array.from({ length: 20 }, (_, i) => ({ type: 'payment.status_changed', data: { status: 'paid', i } })));
    await arrived;
    const took = Date.now() - started;
    assert.ok(took < 2500, `the healthy tenant waited ${took} ms`);
    assert.equal(dead.received.length, 20, 'the dead endpoint holds at most its concurrency cap');
  } finally {
    await dead.close();
    await healthy.close();
    await t.close();
  }
});
