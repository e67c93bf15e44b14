// Endpoint health (docs/rules.md#health) on a virtual clock against real receivers: degraded, recovered, paused (5 days,
// 50 failed events, 410 Gone), what clears it and what does not, and skipped events replayed after reactivation.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { STANDARD } from '../src/policy/presets.ts';
import { PolicyRegistry } from '../src/policy/registry.ts';
import type { HealthTransition } from '../src/store/store.ts';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';
import { settle } from '../testing/settle.ts';
import { DAY, H, MIN, S } from '../testing/time.ts';

async function healthEngine(extra: Parameters<typeof testEngine>[0] = {}) {
  const transitions: HealthTransition[] = [];
  const t = await testEngine({
    policies: new PolicyRegistry([
      { ...STANDARD, name: 'standard-no-gone', health: { ...STANDARD.health, pauseOnGone: false } },
    ]),
    observers: [{ health: (tr) => transitions.push(tr) }],
    ...extra,
  });
  return { ...t, transitions, seen: () => transitions.map((x) => `${x.from}>${x.to}:${x.reason}`) };
}

test('a failed scheduled attempt degrades an active endpoint once; the next success recovers it', async () => {
  const t = await healthEngine();
  const rx = await startReceiver((n) => (n <= 3 ? 500 : 200), { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url });
    const t0 = t.clock.now();
    await t.engine.events.accept(t.tenantId, { type: 'a.b', data: {} });
    await t.engine.runDue();
    let ep = await t.engine.endpoints.get(t.tenantId, endpoint.id);
    assert.equal(ep.status, 'degraded');
    assert.ok(
      ep.failingSince !== null && ep.failingSince >= t0 && ep.failingSince < t0 + 5 * S,
      'the streak starts at the failed attempt',
    );
    await settle(t.engine, t.clock);
    ep = await t.engine.endpoints.get(t.tenantId, endpoint.id);
    assert.equal(ep.status, 'active');
    assert.equal(ep.failingSince, null);
    assert.deepEqual(
      t.seen(),
      ['active>degraded:failing', 'degraded>active:recovered'],
      'one transition each way, not one per failure',
    );
  } finally {
    await rx.close();
    await t.close();
  }
});

test('a successful test delivery or replay clears degradation; failed ones leave health alone', async () => {
  const t = await healthEngine();
  let answer = 500;
  const rx = await startReceiver(() => answer, { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'brief' });
    const r = await t.engine.events.accept(t.tenantId, { type: 'a.b', data: {} });
    await settle(t.engine, t.clock);
    assert.equal((await t.store.reporting.getDelivery(t.tenantId, r.deliveries[0].id))?.status, 'failed');
    assert.equal((await t.engine.endpoints.get(t.tenantId, endpoint.id)).status, 'degraded');

    // A failed test delivery does not move it (nor count as a scheduled failure).
    const failedTest = await t.engine.endpoints.test(t.tenantId, endpoint.id);
    assert.equal(failedTest.outcome, 'delivery_failure');
    assert.equal((await t.engine.endpoints.get(t.tenantId, endpoint.id)).status, 'degraded');

    answer = 200;
    await t.engine.endpoints.test(t.tenantId, endpoint.id);
    assert.equal((await t.engine.endpoints.get(t.tenantId, endpoint.id)).status, 'active', 'a test delivery clears it');

    // Degrade again, then a successful replay clears it.
    answer = 500;
    const r2 = await t.engine.events.accept(t.tenantId, { type: 'a.b', data: {} });
    await settle(t.engine, t.clock);
    assert.equal((await t.engine.endpoints.get(t.tenantId, endpoint.id)).status, 'degraded');
    answer = 200;
    await t.engine.replays.delivery(t.tenantId, r2.deliveries[0].id);
    await settle(t.engine, t.clock);
    assert.equal((await t.engine.endpoints.get(t.tenantId, endpoint.id)).status, 'active', 'a replay clears it');

    // A failed replay on a healthy endpoint does not degrade it.
    answer = 500;
    await t.engine.replays.delivery(t.tenantId, r.deliveries[0].id);
    await settle(t.engine, t.clock);
    assert.equal((await t.store.reporting.getDelivery(t.tenantId, r.deliveries[0].id))?.status, 'failed');
    assert.equal((await t.engine.endpoints.get(t.tenantId, endpoint.id)).status, 'active');
    assert.deepEqual(t.seen(), [
      'active>degraded:failing',
      'degraded>active:recovered',
      'active>degraded:failing',
      'degraded>active:recovered',
    ]);
  } finally {
    await rx.close();
    await t.close();
  }
});

test('a URL change clears degradation; description and subscription edits do not', async () => {
  const t = await healthEngine();
  const rx = await startReceiver(() => 500, { clock: t.clock });
  const rx2 = await startReceiver(() => 200, { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url });
    await t.engine.events.accept(t.tenantId, { type: 'a.b', data: {} });
    await t.engine.runDue();
    assert.equal((await t.engine.endpoints.get(t.tenantId, endpoint.id)).status, 'degraded');
    await t.engine.endpoints.update(t.tenantId, endpoint.id, { description: 'renamed' });
    await t.engine.endpoints.update(t.tenantId, endpoint.id, { event_types: ['a.*'] });
    let ep = await t.engine.endpoints.get(t.tenantId, endpoint.id);
    assert.equal(ep.status, 'degraded');
    assert.notEqual(ep.failingSince, null);
    await t.engine.endpoints.update(t.tenantId, endpoint.id, { url: rx.url });
    assert.equal(
      (await t.engine.endpoints.get(t.tenantId, endpoint.id)).status,
      'degraded',
      'the same URL is no change',
    );
    await t.engine.endpoints.update(t.tenantId, endpoint.id, { url: rx2.url });
    ep = await t.engine.endpoints.get(t.tenantId, endpoint.id);
    assert.equal(ep.status, 'active');
    assert.equal(ep.failingSince, null);
    assert.equal(ep.consecutiveFailedEvents, 0);
  } finally {
    await rx.close();
    await rx2.close();
    await t.close();
  }
});

test('standard: paused after 5 days of uninterrupted failure, by the sweep when no attempt happens', async () => {
  const t = await healthEngine();
  const rx = await startReceiver(() => 500, { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url });
    const t0 = t.clock.now();
    await t.engine.events.accept(t.tenantId, { type: 'a.b', data: {} });
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, 8);
    assert.ok(t.clock.now() < t0 + 2 * DAY, 'the ladder ends long before 5 days');
    const since = (await t.engine.endpoints.get(t.tenantId, endpoint.id)).failingSince!;
    t.clock.set(since + 5 * DAY - 1);
    assert.deepEqual((await t.engine.maintenance.run()).health, []);
    assert.equal((await t.engine.endpoints.get(t.tenantId, endpoint.id)).status, 'degraded');
    t.clock.set(since + 5 * DAY);
    const r = await t.engine.maintenance.run();
    assert.equal(r.health.length, 1);
    const ep = await t.engine.endpoints.get(t.tenantId, endpoint.id);
    assert.equal(ep.status, 'paused');
    assert.equal(ep.pauseReason, 'failing');
    assert.deepEqual((await t.engine.maintenance.run()).health, [], 'told once');
    assert.deepEqual(t.seen(), ['active>degraded:failing', 'degraded>paused:failing']);
  } finally {
    await rx.close();
    await t.close();
  }
});

test('standard: an attempt after 5 days of failure pauses it too; a success in between restarts the streak', async () => {
  const t = await healthEngine();
  let answer = 500;
  const rx = await startReceiver(() => answer, { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url });
    const t0 = t.clock.now();
    await t.engine.events.accept(t.tenantId, { type: 'a.b', data: {} });
    await t.engine.runDue();
    t.clock.set(t0 + 3 * DAY);
    answer = 200;
    await t.engine.events.accept(t.tenantId, { type: 'a.b', data: {} });
    await t.engine.runDue();
    answer = 500;
    t.clock.set(t0 + 4 * DAY);
    await t.engine.events.accept(t.tenantId, { type: 'a.b', data: {} });
    await t.engine.runDue();
    t.clock.set(t0 + 6 * DAY);
    await t.engine.events.accept(t.tenantId, { type: 'a.b', data: {} });
    await t.engine.runDue();
    assert.equal(
      (await t.engine.endpoints.get(t.tenantId, endpoint.id)).status,
      'degraded',
      'the streak began at day 4',
    );
    t.clock.set(t0 + 9 * DAY + MIN);
    await t.engine.events.accept(t.tenantId, { type: 'a.b', data: {} });
    await t.engine.runDue();
    const ep = await t.engine.endpoints.get(t.tenantId, endpoint.id);
    assert.equal(ep.status, 'paused');
    assert.equal(ep.pauseReason, 'failing');
  } finally {
    await rx.close();
    await t.close();
  }
});

test('brief: 50 consecutive failed events (not attempts) suspend it; 49 do not', async () => {
  const t = await healthEngine();
  const rx = await startReceiver(() => 500, { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'brief' });
    // One event, four attempts: one failed event.
    await t.engine.events.accept(t.tenantId, { type: 'a.b', data: {} });
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, 4);
    let ep = await t.engine.endpoints.get(t.tenantId, endpoint.id);
    assert.equal(ep.consecutiveFailedEvents, 1);
    await t.engine.events.acceptMany(
      t.tenantId,
      Array.from({ length: 48 }, (_, i) => ({ type: 'a.b', data: { i } })),
    );
    await settle(t.engine, t.clock);
    ep = await t.engine.endpoints.get(t.tenantId, endpoint.id);
    assert.equal(ep.consecutiveFailedEvents, 49);
    assert.equal(ep.status, 'degraded', `${rx.received.length} failed attempts, 49 events`);
    await t.engine.events.accept(t.tenantId, { type: 'a.b', data: {} });
    await t.engine.runDue();
    ep = await t.engine.endpoints.get(t.tenantId, endpoint.id);
    assert.equal(ep.status, 'paused');
    assert.equal(ep.pauseReason, 'consecutive_failures');
    assert.deepEqual(t.seen(), ['active>degraded:failing', 'degraded>paused:consecutive_failures']);
    // Not attempted any more: its pending retry ends failed (endpoint_paused), and it never resumes by itself.
    const before = rx.received.length;
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, before);
    await t.engine.maintenance.run(t.clock.now() + 30 * DAY);
    assert.equal((await t.engine.endpoints.get(t.tenantId, endpoint.id)).status, 'paused');
  } finally {
    await rx.close();
    await t.close();
  }
});

test('410 Gone pauses the endpoint at once (reason gone) unless the policy turns it off', async () => {
  const t = await healthEngine();
  const rx = await startReceiver(() => 410, { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, event_types: ['x.*'] });
    const { endpoint: lenient } = await t.engine.endpoints.create(t.tenantId, {
      url: rx.url,
      policy: 'standard-no-gone',
      event_types: ['y.*'],
    });
    await t.engine.events.accept(t.tenantId, { type: 'x.1', data: {} });
    await t.engine.events.accept(t.tenantId, { type: 'y.1', data: {} });
    await t.engine.runDue();
    const ep = await t.engine.endpoints.get(t.tenantId, endpoint.id);
    assert.equal(ep.status, 'paused');
    assert.equal(ep.pauseReason, 'gone');
    assert.equal((await t.engine.endpoints.get(t.tenantId, lenient.id)).status, 'degraded');
    assert.deepEqual(t.seen().sort(), ['active>degraded:failing', 'active>paused:gone']);
  } finally {
    await rx.close();
    await t.close();
  }
});

test("a paused endpoint's new events are skipped; after PATCH status=active a window replay with include_skipped delivers them", async () => {
  const t = await healthEngine();
  let answer = 410;
  const rx = await startReceiver(() => answer, { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url });
    await t.engine.events.accept(t.tenantId, { type: 'a.b', data: {} });
    await t.engine.runDue();
    assert.equal((await t.engine.endpoints.get(t.tenantId, endpoint.id)).status, 'paused');
    t.clock.advance(1 * MIN);
    const skipped = await t.engine.events.acceptMany(
      t.tenantId,
      Array.from({ length: 3 }, (_, i) => ({ event_id: `s${i}`, type: 'a.b', data: { i } })),
    );
    for (const r of skipped) {
      if (r instanceof Error) throw r;
      assert.equal(r.deliveries[0].status, 'skipped', 'recorded at once, not attempted');
    }
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, 1);
    await assert.rejects(t.engine.replays.window(t.tenantId, endpoint.id, { includeSkipped: true }), {
      code: 'endpoint_paused',
    });

    answer = 200;
    t.clock.advance(1 * H);
    await t.engine.endpoints.update(t.tenantId, endpoint.id, { status: 'active' });
    assert.equal((await t.engine.endpoints.get(t.tenantId, endpoint.id)).status, 'active');
    const replay = await t.engine.replays.window(t.tenantId, endpoint.id, { includeSkipped: true });
    assert.equal(replay.selected, 4, 'three skipped plus the one that failed on 410');
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, 5);
    const ids = new Set(rx.received.slice(1).map((r) => String(r.headers['x-webhook-id'])));
    for (const id of ['s0', 's1', 's2']) assert.ok(ids.has(id), `${id} delivered`);
    const after = await t.store.replays.getReplay(t.tenantId, replay.id);
    assert.equal(after?.succeeded, 4);
  } finally {
    await rx.close();
    await t.close();
  }
});
