// Breaker closed → open (docs/rules.md#breaker-open) on a virtual clock against a real receiver: the 5-delivery minimum (deliveries, not attempts),
// the 80 % ratio, client errors never opening it, and held deliveries spending no attempts.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startReceiver } from '../testing/receiver.ts';
import { settle } from '../testing/settle.ts';
import { breakerEngine, events, MIN, S } from './breaker-fixtures.ts';

test('5 deliveries with 4 delivery failures (80 %) open the tenant breaker; due deliveries are then held without attempts', async () => {
  const t = await breakerEngine();
  const rx = await startReceiver((n) => (n <= 4 ? 500 : 200), { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments' });
    const t0 = t.clock.now();
    await t.engine.events.acceptMany(t.tenantId, events(5));
    await t.engine.runDue();
    assert.equal(rx.received.length, 5);
    const st = await t.engine.breakers.status({ tenantId: t.tenantId });
    assert.equal(st.state, 'open');
    assert.equal(st.scopeKey, `tenant:${t.tenantId}`);
    assert.deepEqual({ d: st.window.deliveries, f: st.window.failures }, { d: 5, f: 4 });
    assert.equal(st.pauseMs, 5 * MIN);
    assert.equal(st.nextProbeAt, t0 + 5 * MIN);
    assert.deepEqual(
      t.transitions.map((x) => [x.from, x.to, x.reason, x.scope]),
      [['closed', 'open', 'failure_ratio', 'tenant']],
    );

    // New events and the failed ones' retries (due at +1 s) are held: nothing reaches the receiver.
    const more = await t.engine.events.acceptMany(t.tenantId, events(3, 'late'));
    await t.engine.runDue();
    t.clock.advance(1 * S);
    await t.engine.runDue();
    assert.equal(rx.received.length, 5, 'nothing is attempted while open');
    for (const r of more) {
      if (r instanceof Error) throw r;
      const d = await t.store.reporting.getDelivery(t.tenantId, r.deliveries[0].id);
      assert.equal(d?.status, 'held');
      assert.equal(d?.attemptCount, 0, 'holding spends no attempts');
      assert.equal(d?.nextAttemptAt, t0 + 5 * MIN, 'held until the probe time');
    }
    const counts = await t.store.reporting.countByStatus();
    assert.equal(counts.held, 3 + 4);
  } finally {
    await rx.close();
    await t.close();
  }
});

test('4 failing deliveries do not open it however often they retry: at least 5 distinct deliveries are needed', async () => {
  const t = await breakerEngine();
  const rx = await startReceiver(() => 503, { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments' });
    await t.engine.events.acceptMany(t.tenantId, events(4));
    await t.engine.runDue();
    assert.equal(rx.received.length, 4);
    // Their retries at +1 s, +3 s, +7 s: 16 failed attempts in the window, still 4 deliveries.
    for (const pause of [1, 2, 4]) {
      t.clock.advance(pause * S);
      await t.engine.runDue();
    }
    assert.equal(rx.received.length, 16);
    const st = await t.engine.breakers.status({ tenantId: t.tenantId });
    assert.equal(st.state, 'closed');
    assert.deepEqual({ d: st.window.deliveries, f: st.window.failures }, { d: 4, f: 4 });
    assert.equal(t.transitions.length, 0);
    // A fifth failing delivery reaches the minimum and opens it.
    await t.engine.events.acceptMany(t.tenantId, events(1, 'fifth'));
    await t.engine.runDue();
    assert.equal((await t.engine.breakers.status({ tenantId: t.tenantId })).state, 'open');
    assert.deepEqual(
      t.transitions.map((x) => x.reason),
      ['failure_ratio'],
    );
  } finally {
    await rx.close();
    await t.close();
  }
});

test('one failing delivery walks the whole payments fast ladder (0, 1, 3, … 511 s) and never opens the breaker', async () => {
  const t = await breakerEngine();
  const rx = await startReceiver(() => 500, { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments' });
    const t0 = t.clock.now();
    const [r] = await t.engine.events.acceptMany(t.tenantId, events(1));
    if (r instanceof Error) throw r;
    await settle(t.engine, t.clock);
    assert.deepEqual(
      rx.received.map((x) => (x.at - t0) / S),
      [0, 1, 3, 7, 15, 31, 63, 127, 255, 511],
    );
    assert.equal(t.transitions.length, 0, 'its own retries are one delivery in the window');
    assert.equal((await t.store.reporting.getDelivery(t.tenantId, r.deliveries[0].id))?.status, 'failed');
    assert.equal((await t.engine.breakers.status({ tenantId: t.tenantId })).state, 'closed');
  } finally {
    await rx.close();
    await t.close();
  }
});

test('below 80 % delivery failures it stays closed (3 of 5)', async () => {
  const t = await breakerEngine();
  const rx = await startReceiver((n) => (n <= 3 ? 500 : 200), { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments' });
    await t.engine.events.acceptMany(t.tenantId, events(5));
    await t.engine.runDue();
    assert.equal((await t.engine.breakers.status({ tenantId: t.tenantId })).state, 'closed');
    assert.equal(t.transitions.length, 0);
  } finally {
    await rx.close();
    await t.close();
  }
});

test('a storm of 4xx never opens it: client errors count as non-failures', async () => {
  const t = await breakerEngine();
  const rx = await startReceiver((n) => (n % 2 === 0 ? 404 : 400), { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments' });
    await t.engine.events.acceptMany(t.tenantId, events(10));
    // Money events walk the slow ladder on 4xx: their retries keep answering 4xx and still never open it.
    await t.engine.events.acceptMany(t.tenantId, [
      { event_id: 'm1', type: 'refund.completed', data: {} },
      { event_id: 'm2', type: 'refund.completed', data: {} },
    ]);
    for (let i = 0; i < 3; i++) {
      await t.engine.runDue();
      t.clock.advance(15 * MIN);
    }
    await t.engine.runDue();
    assert.ok(rx.received.length >= 14, `got ${rx.received.length}`);
    const st = await t.engine.breakers.status({ tenantId: t.tenantId }, 60 * MIN);
    assert.equal(st.state, 'closed');
    assert.equal(st.window.failures, 0);
    assert.equal(t.transitions.length, 0);
  } finally {
    await rx.close();
    await t.close();
  }
});

test("endpoint scope: a dead endpoint opens its own breaker; the tenant's healthy endpoint and other tenants go on", async () => {
  const t = await breakerEngine();
  const dead = await startReceiver(() => 500, { clock: t.clock });
  const ok = await startReceiver(() => 200, { clock: t.clock });
  try {
    const { endpoint: deadEp } = await t.engine.endpoints.create(t.tenantId, {
      url: dead.url,
      policy: 'payments-endpoint',
      event_types: ['dead.*'],
    });
    await t.engine.endpoints.create(t.tenantId, { url: ok.url, policy: 'payments-endpoint', event_types: ['ok.*'] });
    await t.engine.events.acceptMany(
      t.tenantId,
      Array.from({ length: 5 }, (_, i) => ({ event_id: `d${i}`, type: 'dead.x', data: {} })),
    );
    await t.engine.runDue();
    assert.equal((await t.engine.breakers.status({ tenantId: t.tenantId, endpointId: deadEp.id })).state, 'open');
    assert.equal(t.transitions[0]?.scopeKey, `endpoint:${deadEp.id}`);
    await t.engine.events.acceptMany(
      t.tenantId,
      Array.from({ length: 5 }, (_, i) => ({ event_id: `o${i}`, type: 'ok.x', data: {} })),
    );
    await t.engine.runDue();
    assert.equal(ok.received.length, 5, 'the healthy endpoint is not held');
    assert.equal((await t.engine.breakers.status({ tenantId: t.tenantId })).state, 'closed');
  } finally {
    await dead.close();
    await ok.close();
    await t.close();
  }
});
