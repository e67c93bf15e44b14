// docs/rules.md#replay-one: single-delivery replays on a virtual clock: only a failed or skipped delivery is replayable, never on a
// paused endpoint, and a replay is one more attempt under the same ids.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../src/clock.ts';
import { until } from '../testing/deadline.ts';
import { tempStore, testEngine } from '../testing/harness.ts';
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
    assert.equal((await t.store.reporting.getDelivery(t.tenantId, id))?.status, 'failed');
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
    assert.equal((await t.store.reporting.getDelivery(t.tenantId, id))?.status, 'pending');
    answer = 200;
    await t.engine.runDue();
    assert.equal((await t.store.reporting.getDelivery(t.tenantId, id))?.status, 'succeeded');
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
    assert.equal((await t.store.reporting.getDelivery(t.tenantId, skipped))?.status, 'skipped');
    await assert.rejects(t.engine.replays.delivery(t.tenantId, skipped), { code: 'endpoint_paused' });
    await assert.rejects(t.engine.replays.window(t.tenantId, t.endpoint.id, { includeSkipped: true }), {
      code: 'endpoint_paused',
    });
    await t.engine.endpoints.update(t.tenantId, t.endpoint.id, { status: 'active' });
    const rp = await t.engine.replays.delivery(t.tenantId, skipped);
    assert.equal(rp.includeSkipped, true, 'a skipped delivery is replayed as such');
    await t.engine.runDue();
    assert.equal((await t.store.reporting.getDelivery(t.tenantId, skipped))?.status, 'succeeded');
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

test('two replays of one failed delivery at once: one is scheduled, the other is refused as changed', async () => {
  const t = await engineAnswering(() => 400);
  try {
    const id = await t.deliver('evt_race');
    // Both read the delivery as failed before either schedules it; the store lets only the first move it.
    const results = await Promise.allSettled([
      t.engine.replays.delivery(t.tenantId, id),
      t.engine.replays.delivery(t.tenantId, id),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected'],
    );
    const err = (results[1] as PromiseRejectedResult).reason;
    assert.equal(err.code, 'delivery_not_replayable');
    assert.equal(err.status, 409);
    assert.equal(err.params.status, 'changed');
    await t.engine.runDue();
    const sent = t.rx.received.filter((r) => r.headers['x-webhook-id'] === 'evt_race');
    assert.equal(sent.length, 2, 'the first attempt and one replay, not two');
  } finally {
    await t.close();
  }
});

test("a replay's progress is read back by id, only within its tenant", async () => {
  const t = await engineAnswering(() => 400);
  try {
    const id = await t.deliver('evt_prog');
    const rp = await t.engine.replays.delivery(t.tenantId, id);
    assert.deepEqual(await t.engine.replays.get(t.tenantId, rp.id), rp, 'scheduled, nothing attempted yet');
    await t.engine.runDue();
    const done = await t.engine.replays.get(t.tenantId, rp.id);
    assert.deepEqual([done.kind, done.selected, done.attempted, done.succeeded, done.failed], ['single', 1, 1, 0, 1]);
    assert.deepEqual(await t.engine.replays.find(t.tenantId, rp.id), done);
    await assert.rejects(t.engine.replays.get(t.tenantId, 'rpl_nope'), { code: 'replay_not_found', status: 404 });
    assert.equal(await t.engine.replays.find(t.tenantId, 'rpl_nope'), null);
    await t.store.catalog.createTenant({
      id: 'ten_OTHER',
      name: 'Other',
      ownerEmails: ['other@example.test'],
      operationsEndpointId: null,
      notifyEmail: true,
      createdAt: T0,
      updatedAt: T0,
    });
    await assert.rejects(t.engine.replays.get('ten_OTHER', rp.id), { code: 'replay_not_found' });
    assert.equal(await t.engine.replays.find('ten_OTHER', rp.id), null);
    await assert.rejects(t.engine.replays.delivery('ten_OTHER', id), { code: 'delivery_not_found' });
  } finally {
    await t.close();
  }
});

test('a replay wakes an idle running dispatcher: sent without waiting for its hour-long poll', async () => {
  // The store counts the dispatcher's idle checks (nextDueAt, asked just before each sleep): when the count stops
  // moving, the loop sleeps its hour and only a wake gets it to claim again.
  const temp = await tempStore();
  let idleChecks = 0;
  const queue = {
    ...temp.store.queue,
    nextDueAt() {
      idleChecks++;
      return temp.store.queue.nextDueAt();
    },
  };
  const store = new Proxy(temp.store, {
    get(target, key) {
      if (key === 'queue') return queue;
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  const asleep = () =>
    until(
      async () => {
        const seen = idleChecks;
        await new Promise((r) => setTimeout(r, 300));
        return seen > 0 && seen === idleChecks;
      },
      Boolean,
      { what: 'the dispatcher loop to sleep', timeoutMs: 60_000 },
    );
  let answer = 400;
  const t = await testEngine({ store, clock: new VirtualClock(T0), dispatcher: { pollMs: 3_600_000 } });
  const rx = await startReceiver(() => answer, { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'strict' });
    const ids: string[] = [];
    for (const id of ['evt_wa', 'evt_wb'])
      ids.push(
        (await t.engine.events.accept(t.tenantId, { event_id: id, type: 'order.created', data: {} })).deliveries[0].id,
      );
    await t.engine.runDue();
    const status = async (id: string) => (await t.store.reporting.getDelivery(t.tenantId, id))?.status;
    assert.deepEqual([await status(ids[0]), await status(ids[1])], ['failed', 'failed']);
    answer = 200;
    t.engine.start();
    await asleep();
    await t.engine.replays.delivery(t.tenantId, ids[0]);
    await until(
      () => status(ids[0]),
      (s) => s === 'succeeded',
      { what: 'the single replay to be sent', timeoutMs: 60_000 },
    );
    await asleep();
    const w = await t.engine.replays.window(t.tenantId, endpoint.id);
    assert.equal(w.selected, 1);
    await until(
      () => status(ids[1]),
      (s) => s === 'succeeded',
      { what: 'the window replay to be sent', timeoutMs: 60_000 },
    );
  } finally {
    await rx.close();
    await t.close();
    await temp.cleanup();
  }
});
