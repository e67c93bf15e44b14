// docs/rules.md#replay-one: single-delivery replays on a virtual clock: only a failed or skipped delivery is replayable, never on a
// paused endpoint, and a replay is one more attempt under the same ids.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../src/clock.ts';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';

const T0 = Date.UTC(2026, 0, 5, 12);

async function engineAnswering(status: () => number) {
  const t = await testEngine({ clock: new VirtualClock(T0) });
  const rx = await startReceiver(status, { clock: t.clock });
  const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'strict' });
  const deliver = async (eventId: string) => {
    const r = await t.engine.events.accept(t.tenantId, { event_id: eventId, type: 'order.created', data: {} });
    await t.engine.runDue();
    return r.deliveries[0].id;
  };
  return {
    ...t,
    rx,
    endpoint,
    deliver,
    async close() {
      await rx.close();
      await t.close();
    },
  };
}

test('a failed delivery is replayed once, same ids; the replay row says what was selected', async () => {
  let answer = 400;
  const t = await engineAnswering(() => answer);
  try {
    const id = await t.deliver('evt_r1');
    assert.equal((await t.store.getDelivery(t.tenantId, id))?.status, 'failed');
    t.clock.advance(60_000);
    const rp = await t.engine.replays.delivery(t.tenantId, id);
    assert.match(rp.id, /^rpl_/);
    assert.deepEqual(
      { ...rp, id: undefined },
      {
        id: undefined,
        tenantId: t.tenantId,
        endpointId: t.endpoint.id,
        kind: 'single',
        sinceMs: null,
        untilMs: null,
        includeSkipped: false,
        selected: 1,
        attempted: 0,
        succeeded: 0,
        failed: 0,
        createdAt: T0 + 60_000,
      },
    );
    assert.equal((await t.store.getDelivery(t.tenantId, id))?.status, 'pending');
    answer = 200;
    await t.engine.runDue();
    assert.equal((await t.store.getDelivery(t.tenantId, id))?.status, 'succeeded');
    const sent = t.rx.received.filter((r) => r.headers['x-webhook-id'] === 'evt_r1');
    assert.equal(sent.length, 2, 'the first attempt and the replay');
    assert.equal(sent[1].headers['x-webhook-delivery'], id, 'the same delivery id');
  } finally {
    await t.close();
  }
});

test('unknown, in-flight and succeeded deliveries are refused with their codes; a paused endpoint refuses replays', async () => {
  const t = await engineAnswering(() => 200);
  try {
    await assert.rejects(t.engine.replays.delivery(t.tenantId, 'dlv_nope'), {
      code: 'delivery_not_found',
      status: 404,
    });
    const ok = await t.deliver('evt_ok');
    await assert.rejects(
      t.engine.replays.delivery(t.tenantId, ok),
      (e: any) => e.code === 'delivery_not_replayable' && e.params.status === 'succeeded',
    );
    const pending = (await t.engine.events.accept(t.tenantId, { event_id: 'evt_p', type: 'order.created', data: {} }))
      .deliveries[0].id;
    await assert.rejects(
      t.engine.replays.delivery(t.tenantId, pending),
      (e: any) => e.code === 'delivery_not_replayable' && e.params.status === 'pending',
    );
    await t.engine.runDue();

    await t.engine.endpoints.update(t.tenantId, t.endpoint.id, { status: 'paused' });
    // Accepted while paused: skipped. Replayable, but only once the endpoint is active again.
    const skipped = (await t.engine.events.accept(t.tenantId, { event_id: 'evt_s', type: 'order.created', data: {} }))
      .deliveries[0].id;
    assert.equal((await t.store.getDelivery(t.tenantId, skipped))?.status, 'skipped');
    await assert.rejects(t.engine.replays.delivery(t.tenantId, skipped), { code: 'endpoint_paused' });
    await assert.rejects(t.engine.replays.window(t.tenantId, t.endpoint.id, { includeSkipped: true }), {
      code: 'endpoint_paused',
    });
    await t.engine.endpoints.update(t.tenantId, t.endpoint.id, { status: 'active' });
    const rp = await t.engine.replays.delivery(t.tenantId, skipped);
    assert.equal(rp.includeSkipped, true, 'a skipped delivery is replayed as such');
    await t.engine.runDue();
    assert.equal((await t.store.getDelivery(t.tenantId, skipped))?.status, 'succeeded');
  } finally {
    await t.close();
  }
});

test('window replay: explicit bounds, since after until refused, the per-replay cap, and Retry-After up to UTC midnight', async () => {
  const t = await testEngine({ clock: new VirtualClock(T0), replayQuotaPerDay: 2, replayMaxDeliveries: 1 });
  const rx = await startReceiver(() => 400, { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'strict' });
    for (const id of ['evt_w1', 'evt_w2'])
      await t.engine.events.accept(t.tenantId, { event_id: id, type: 'order.created', data: {} });
    await t.engine.runDue();
    t.clock.advance(1000);
    await assert.rejects(
      t.engine.replays.window(t.tenantId, endpoint.id, { since: T0 + 1, until: T0 }),
      (e: any) => e.code === 'invalid_request' && e.status === 400,
    );
    const none = await t.engine.replays.window(t.tenantId, endpoint.id, { since: T0 - 10_000, until: T0 - 1 });
    assert.deepEqual(
      [none.kind, none.sinceMs, none.untilMs, none.selected, none.includeSkipped],
      ['window', T0 - 10_000, T0 - 1, 0, false],
    );
    const one = await t.engine.replays.window(t.tenantId, endpoint.id, {
      since: T0,
      until: T0 + 1000,
      includeSkipped: true,
    });
    assert.equal(one.selected, 1, 'replayMaxDeliveries caps what one replay selects');
    assert.equal(one.includeSkipped, true);
    // The empty replay used no quota: a second one that selects something is still allowed (quota 2).
    assert.equal((await t.engine.replays.window(t.tenantId, endpoint.id, { since: T0, until: T0 + 1000 })).selected, 1);
    await t.engine.runDue(); // both fail again, so the next replay would select them
    await assert.rejects(
      t.engine.replays.window(t.tenantId, endpoint.id),
      (e: any) =>
        e.code === 'replay_quota_exceeded' &&
        e.params.max === 2 &&
        e.retryAfterSec === Math.ceil((Date.UTC(2026, 0, 6) - (T0 + 1000)) / 1000),
    );
  } finally {
    await rx.close();
    await t.close();
  }
});
