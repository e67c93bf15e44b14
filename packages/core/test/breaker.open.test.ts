// Breaker closed → open (docs/rules.md#breaker-open) on a virtual clock against a real receiver: the 5-attempt minimum, the 80 % ratio,
// client errors never opening it, and held deliveries spending no attempts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startReceiver } from './harness.ts';
import { breakerEngine, events, MIN, S } from './breaker-fixtures.ts';

test('5 attempts with 4 delivery failures (80 %) open the tenant breaker; due deliveries are then held without attempts', async () => {
  const t = await breakerEngine();
  const rx = await startReceiver((n) => (n <= 4 ? 500 : 200), t.clock);
  try {
    await t.engine.createEndpoint(t.tenantId, { url: rx.url, policy: 'payments' });
    const t0 = t.clock.now();
    await t.engine.acceptEvents(t.tenantId, events(5));
    await t.engine.dispatcher.runDue();
    assert.equal(rx.received.length, 5);
    const st = await t.engine.breaker.status({ tenantId: t.tenantId });
    assert.equal(st.state, 'open');
    assert.equal(st.scopeKey, `tenant:${t.tenantId}`);
    assert.deepEqual({ a: st.window.attempts, f: st.window.failures }, { a: 5, f: 4 });
    assert.equal(st.pauseMs, 5 * MIN);
    assert.equal(st.nextProbeAt, t0 + 5 * MIN);
    assert.deepEqual(t.transitions.map((x) => [x.from, x.to, x.reason, x.scope]), [['closed', 'open', 'failure_ratio', 'tenant']]);

    // New events and the failed ones' retries (due at +1 s) are held: nothing reaches the receiver.
    const more = await t.engine.acceptEvents(t.tenantId, events(3, 'late'));
    await t.engine.dispatcher.runDue();
    t.clock.advance(1 * S);
    await t.engine.dispatcher.runDue();
    assert.equal(rx.received.length, 5, 'nothing is attempted while open');
    for (const r of more) {
      if (r instanceof Error) throw r;
      const d = await t.store.getDelivery(t.tenantId, r.deliveries[0].id);
      assert.equal(d?.status, 'held');
      assert.equal(d?.attemptCount, 0, 'holding spends no attempts');
      assert.equal(d?.nextAttemptAt, t0 + 5 * MIN, 'held until the probe time');
    }
    const counts = await t.store.countByStatus();
    assert.equal(counts.held, 3 + 4);
  } finally {
    await rx.close();
    await t.close();
  }
});

test('4 attempts that all fail do not open it: at least 5 attempts are needed', async () => {
  const t = await breakerEngine();
  const rx = await startReceiver(() => 503, t.clock);
  try {
    await t.engine.createEndpoint(t.tenantId, { url: rx.url, policy: 'payments' });
    await t.engine.acceptEvents(t.tenantId, events(4));
    await t.engine.dispatcher.runDue();
    assert.equal(rx.received.length, 4);
    const st = await t.engine.breaker.status({ tenantId: t.tenantId });
    assert.equal(st.state, 'closed');
    assert.deepEqual({ a: st.window.attempts, f: st.window.failures }, { a: 4, f: 4 });
    // The fifth failure (a retry 1 s later) reaches the minimum and opens it.
    t.clock.advance(1 * S);
    await t.engine.dispatcher.runDue();
    assert.equal((await t.engine.breaker.status({ tenantId: t.tenantId })).state, 'open');
  } finally {
    await rx.close();
    await t.close();
  }
});

test('below 80 % delivery failures it stays closed (3 of 5)', async () => {
  const t = await breakerEngine();
  const rx = await startReceiver((n) => (n <= 3 ? 500 : 200), t.clock);
  try {
    await t.engine.createEndpoint(t.tenantId, { url: rx.url, policy: 'payments' });
    await t.engine.acceptEvents(t.tenantId, events(5));
    await t.engine.dispatcher.runDue();
    assert.equal((await t.engine.breaker.status({ tenantId: t.tenantId })).state, 'closed');
    assert.equal(t.transitions.length, 0);
  } finally {
    await rx.close();
    await t.close();
  }
});

test('a storm of 4xx never opens it: client errors count as non-failures', async () => {
  const t = await breakerEngine();
  const rx = await startReceiver((n) => (n % 2 === 0 ? 404 : 400), t.clock);
  try {
    await t.engine.createEndpoint(t.tenantId, { url: rx.url, policy: 'payments' });
    await t.engine.acceptEvents(t.tenantId, events(10));
    // Money events walk the slow ladder on 4xx: their retries keep answering 4xx and still never open it.
    await t.engine.acceptEvents(t.tenantId, [
      { event_id: 'm1', type: 'refund.completed', data: {} },
      { event_id: 'm2', type: 'refund.completed', data: {} },
    ]);
    for (let i = 0; i < 3; i++) {
      await t.engine.dispatcher.runDue();
      t.clock.advance(15 * MIN);
    }
    await t.engine.dispatcher.runDue();
    assert.ok(rx.received.length >= 14, `got ${rx.received.length}`);
    const st = await t.engine.breaker.status({ tenantId: t.tenantId }, 60 * MIN);
    assert.equal(st.state, 'closed');
    assert.equal(st.window.failures, 0);
    assert.equal(t.transitions.length, 0);
  } finally {
    await rx.close();
    await t.close();
  }
});

test('endpoint scope: a dead endpoint opens its own breaker; the tenant\'s healthy endpoint and other tenants go on', async () => {
  const t = await breakerEngine();
  const dead = await startReceiver(() => 500, t.clock);
  const ok = await startReceiver(() => 200, t.clock);
  try {
    const { endpoint: deadEp } = await t.engine.createEndpoint(t.tenantId, { url: dead.url, policy: 'payments-endpoint', event_types: ['dead.*'] });
    await t.engine.createEndpoint(t.tenantId, { url: ok.url, policy: 'payments-endpoint', event_types: ['ok.*'] });
    await t.engine.acceptEvents(t.tenantId, Array.from({ length: 5 }, (_, i) => ({ event_id: `d${i}`, type: 'dead.x', data: {} })));
    await t.engine.dispatcher.runDue();
    assert.equal((await t.engine.breaker.status({ tenantId: t.tenantId, endpointId: deadEp.id })).state, 'open');
    assert.equal(t.transitions[0]?.scopeKey, `endpoint:${deadEp.id}`);
    await t.engine.acceptEvents(t.tenantId, Array.from({ length: 5 }, (_, i) => ({ event_id: `o${i}`, type: 'ok.x', data: {} })));
    await t.engine.dispatcher.runDue();
    assert.equal(ok.received.length, 5, 'the healthy endpoint is not held');
    assert.equal((await t.engine.breaker.status({ tenantId: t.tenantId })).state, 'closed');
  } finally {
    await dead.close();
    await ok.close();
    await t.close();
  }
});
