// Whole ladders on a virtual clock against a real receiver on 127.0.0.1.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';
import { settle } from '../testing/settle.ts';
import { H, MIN, S } from '../testing/time.ts';

test('payments: 500, 500, 404, 404… walks the fast then the slow ladder and fails after the eighth attempt', async () => {
  const t = await testEngine();
  const rx = await startReceiver((n) => (n <= 2 ? 500 : 404), { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments' });
    const start = t.clock.now();
    const accepted = await t.engine.events.accept(t.tenantId, {
      type: 'payment.status_changed',
      data: { status: 'paid' },
    });
    assert.equal(accepted.deliveries.length, 1);
    await settle(t.engine, t.clock);
    const offsets = rx.received.map((r) => r.at - start);
    assert.deepEqual(offsets, [
      0,
      1 * S,
      3 * S,
      3 * S + 15 * MIN,
      3 * S + 75 * MIN,
      3 * S + 315 * MIN,
      3 * S + 1035 * MIN,
      3 * S + 2475 * MIN,
    ]);
    const d = await t.store.reporting.getDelivery(t.tenantId, accepted.deliveries[0].id);
    assert.equal(d?.status, 'failed');
    assert.equal(d?.attemptCount, 8);
    assert.match(d?.terminalReason ?? '', /slow-ladder/);
    const attempts = await t.store.reporting.listAttempts(d!.id);
    assert.equal(attempts.length, 8);
    assert.deepEqual(
      attempts.map((a) => a.responseStatus),
      [500, 500, 404, 404, 404, 404, 404, 404],
    );
    assert.equal(endpoint.policy, 'payments');
  } finally {
    await rx.close();
    await t.close();
  }
});

test('every attempt carries the same ids and body, and a fresh timestamp', async () => {
  const t = await testEngine();
  const rx = await startReceiver((n) => (n < 3 ? 503 : 200), { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'brief' });
    await t.engine.events.accept(t.tenantId, { event_id: 'evt-1', type: 'lead.created', data: { id: 1 } });
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, 3);
    const ids = new Set(
      rx.received.map((r) => `${r.headers['x-webhook-id']}|${r.headers['x-webhook-delivery']}|${r.body.toString()}`),
    );
    assert.equal(ids.size, 1);
    const ts = rx.received.map((r) => Number(r.headers['x-webhook-timestamp']));
    assert.ok(ts[1] - ts[0] === 30 && ts[2] - ts[1] === 300, `timestamps ${ts}`);
    assert.equal(rx.received[0].headers['x-webhook-id'], 'evt-1');
  } finally {
    await rx.close();
    await t.close();
  }
});

test('payments: a money event that waited 3 days (workers down) still gets the whole slow ladder at its first 4xx', async () => {
  const t = await testEngine();
  const rx = await startReceiver(() => 404, { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments' });
    const created = t.clock.now();
    const r = await t.engine.events.accept(t.tenantId, { type: 'refund.completed', data: {} });
    t.clock.advance(72 * H);
    await settle(t.engine, t.clock);
    const offsets = rx.received.map((x) => x.at - created - 72 * H);
    assert.deepEqual(offsets, [0, 15 * MIN, 75 * MIN, 315 * MIN, 1035 * MIN, 2475 * MIN]);
    const d = await t.store.reporting.getDelivery(t.tenantId, r.deliveries[0].id);
    assert.equal(d?.status, 'failed');
    assert.match(d?.terminalReason ?? '', /slow-ladder budget spent/);
  } finally {
    await rx.close();
    await t.close();
  }
});

test('payments: the 30-day age limit ends a delivery whatever its ladder says', async () => {
  const t = await testEngine();
  const rx = await startReceiver(() => 500, { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments' });
    const r = await t.engine.events.accept(t.tenantId, { type: 'payment.status_changed', data: { status: 'paid' } });
    t.clock.advance(30 * 24 * H - 3 * S);
    await settle(t.engine, t.clock);
    // Attempts at 30d-3s, -2s, 0s… the next pause (4 s) would cross the limit.
    assert.equal(rx.received.length, 3);
    const d = await t.store.reporting.getDelivery(t.tenantId, r.deliveries[0].id);
    assert.equal(d?.status, 'failed');
    assert.match(d?.terminalReason ?? '', /30-day age limit reached/);
  } finally {
    await rx.close();
    await t.close();
  }
});

test('non-money 4xx on payments fails at once; strict treats 404 as permanent', async () => {
  const t = await testEngine();
  const rx = await startReceiver(() => 404, { clock: t.clock });
  try {
    const pay = await t.engine.endpoints.create(t.tenantId, {
      url: rx.url,
      policy: 'payments',
      event_types: ['kyc.*'],
    });
    const strict = await t.engine.endpoints.create(t.tenantId, {
      url: rx.url,
      policy: 'strict',
      event_types: ['order.*'],
    });
    const a = await t.engine.events.accept(t.tenantId, { type: 'kyc.approved', data: {} });
    const b = await t.engine.events.accept(t.tenantId, { type: 'order.created', data: {} });
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, 2);
    for (const [r, ep] of [
      [a, pay],
      [b, strict],
    ] as const) {
      const d = await t.store.reporting.getDelivery(t.tenantId, r.deliveries[0].id);
      assert.equal(d?.endpointId, ep.endpoint.id);
      assert.equal(d?.status, 'failed');
      assert.match(d?.terminalReason ?? '', /404.*permanent/);
    }
  } finally {
    await rx.close();
    await t.close();
  }
});

test('standard: 8 attempts over about 27.5 hours against an always-failing receiver', async () => {
  const t = await testEngine();
  const rx = await startReceiver(() => 500, { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url });
    const start = t.clock.now();
    await t.engine.events.accept(t.tenantId, { type: 'message.sent', data: {} });
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, 8);
    const total = rx.received[7].at - start;
    assert.ok(total > 0.8 * 27.5 * H && total < 1.2 * 27.6 * H, `total ${total / H} h`);
  } finally {
    await rx.close();
    await t.close();
  }
});
