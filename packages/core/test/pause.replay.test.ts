// docs/rules.md#paused-endpoint, #health-pause: a delivery still in progress when its endpoint pauses (PATCH, 410, brief's 50 failed events, standard's
// 5 days, or held behind an open breaker) ends `failed` with reason `endpoint_paused`, so the default window replay
// after reactivation recovers it; only events that arrive while paused are `skipped`.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENDPOINT_PAUSED } from '../src/dispatch/attempt-pipeline.ts';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';
import { settle } from '../testing/settle.ts';
import { DAY, H, MIN, S } from '../testing/time.ts';

type T = Awaited<ReturnType<typeof testEngine>>;

async function statuses(t: T, ids: string[]) {
  const out: Array<[string | undefined, string | null | undefined]> = [];
  for (const id of ids) {
    const d = await t.store.reporting.getDelivery(t.tenantId, id);
    out.push([d?.status, d?.terminalReason]);
  }
  return out;
}

function deliveryIds(results: Awaited<ReturnType<T['engine']['events']['acceptMany']>>): string[] {
  return results.map((r) => {
    if (r instanceof Error) throw r;
    return r.deliveries[0].id;
  });
}

/** Reactivate, replay the default window (failed only, last 24 h), and settle; the replay row after. */
async function reactivateAndReplay(t: T, endpointId: string) {
  await t.engine.endpoints.update(t.tenantId, endpointId, { status: 'active' });
  const replay = await t.engine.replays.window(t.tenantId, endpointId);
  await settle(t.engine, t.clock);
  return { replay, after: await t.store.replays.getReplay(t.tenantId, replay.id) };
}

test('PATCH status=paused while deliveries retry: they end failed (endpoint_paused), new events skipped; the default window replay recovers the failed ones', async () => {
  const t = await testEngine();
  let answer = 500;
  const rx = await startReceiver(() => answer, { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url });
    const retrying = deliveryIds(
      await t.engine.events.acceptMany(
        t.tenantId,
        Array.from({ length: 3 }, (_, i) => ({ event_id: `r${i}`, type: 'a.b', data: { i } })),
      ),
    );
    await t.engine.runDue();
    assert.deepEqual(
      (await statuses(t, retrying)).map(([s]) => s),
      ['pending', 'pending', 'pending'],
    );

    await t.engine.endpoints.update(t.tenantId, endpoint.id, { status: 'paused' });
    const late = deliveryIds(
      await t.engine.events.acceptMany(t.tenantId, [{ event_id: 'late', type: 'a.b', data: {} }]),
    );
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, 3, 'nothing attempted while paused');
    assert.deepEqual(await statuses(t, retrying), Array(3).fill(['failed', ENDPOINT_PAUSED]));
    assert.deepEqual(await statuses(t, late), [['skipped', null]]);

    answer = 200;
    t.clock.advance(1 * H);
    const { replay, after } = await reactivateAndReplay(t, endpoint.id);
    assert.equal(replay.selected, 3, 'the deliveries that failed before the pause; not the skipped one');
    assert.deepEqual([after?.attempted, after?.succeeded], [3, 3]);
    assert.deepEqual(
      (await statuses(t, retrying)).map(([s]) => s),
      ['succeeded', 'succeeded', 'succeeded'],
    );
    assert.deepEqual(
      (await statuses(t, late)).map(([s]) => s),
      ['skipped'],
    );
  } finally {
    await rx.close();
    await t.close();
  }
});

test('a 410 pauses the endpoint: the delivery answered 410 and the others retrying end failed (endpoint_paused), replayable', async () => {
  const t = await testEngine();
  let answer = (n: number): number => (n === 1 ? 410 : 500);
  const rx = await startReceiver((n) => answer(n), { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url });
    const ids = deliveryIds(
      await t.engine.events.acceptMany(t.tenantId, [
        { event_id: 'a', type: 'a.b', data: {} },
        { event_id: 'b', type: 'a.b', data: {} },
      ]),
    );
    await t.engine.runDue();
    const ep = await t.engine.endpoints.get(t.tenantId, endpoint.id);
    assert.deepEqual([ep.status, ep.pauseReason], ['paused', 'gone']);
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, 2);
    assert.deepEqual(await statuses(t, ids), [
      ['failed', ENDPOINT_PAUSED],
      ['failed', ENDPOINT_PAUSED],
    ]);

    answer = () => 200;
    const { replay, after } = await reactivateAndReplay(t, endpoint.id);
    assert.equal(replay.selected, 2);
    assert.equal(after?.succeeded, 2);
    assert.deepEqual(
      (await statuses(t, ids)).map(([s]) => s),
      ['succeeded', 'succeeded'],
    );
  } finally {
    await rx.close();
    await t.close();
  }
});

test('brief: the 50th failed event suspends the endpoint; the 50 deliveries waiting to retry end failed (endpoint_paused), all replayable', async () => {
  const t = await testEngine();
  let answer = 500;
  const rx = await startReceiver(() => answer, { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'brief' });
    const ids = deliveryIds(
      await t.engine.events.acceptMany(
        t.tenantId,
        Array.from({ length: 50 }, (_, i) => ({ event_id: `e${i}`, type: 'a.b', data: { i } })),
      ),
    );
    await t.engine.runDue();
    assert.equal((await t.engine.endpoints.get(t.tenantId, endpoint.id)).pauseReason, 'consecutive_failures');
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, 50, 'no retry after the suspension');
    assert.deepEqual(new Set((await statuses(t, ids)).map((s) => s.join())), new Set([`failed,${ENDPOINT_PAUSED}`]));

    answer = 200;
    const { replay, after } = await reactivateAndReplay(t, endpoint.id);
    assert.equal(replay.selected, 50);
    assert.equal(after?.succeeded, 50);
  } finally {
    await rx.close();
    await t.close();
  }
});

test('standard: the health sweep pauses after 5 days of failure; a delivery then retrying ends failed (endpoint_paused), replayable', async () => {
  const t = await testEngine();
  let answer = 500;
  const rx = await startReceiver(() => answer, { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url });
    const t0 = t.clock.now();
    await t.engine.events.accept(t.tenantId, { event_id: 'first', type: 'a.b', data: {} });
    await settle(t.engine, t.clock); // fails for good after ≈ 27.5 h; the endpoint stays degraded
    t.clock.set(t0 + 5 * DAY - MIN);
    const ids = deliveryIds(
      await t.engine.events.acceptMany(t.tenantId, [{ event_id: 'recent', type: 'a.b', data: {} }]),
    );
    await t.engine.runDue();
    assert.deepEqual(
      (await statuses(t, ids)).map(([s]) => s),
      ['pending'],
    );
    await t.engine.maintenance.run(t0 + 5 * DAY + S);
    assert.equal((await t.engine.endpoints.get(t.tenantId, endpoint.id)).pauseReason, 'failing');
    t.clock.set(t0 + 5 * DAY + S);
    const before = rx.received.length;
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, before);
    assert.deepEqual(await statuses(t, ids), [['failed', ENDPOINT_PAUSED]]);

    answer = 200;
    const { replay } = await reactivateAndReplay(t, endpoint.id);
    assert.equal(replay.selected, 1, 'the recent one; the first failed for good more than 24 h ago');
    assert.deepEqual(
      (await statuses(t, ids)).map(([s]) => s),
      ['succeeded'],
    );
  } finally {
    await rx.close();
    await t.close();
  }
});

test('held behind an open breaker when the endpoint is paused: failed (endpoint_paused) when due, replayable', async () => {
  const t = await testEngine();
  let answer = 500;
  const rx = await startReceiver(() => answer, { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments' });
    const ids = deliveryIds(
      await t.engine.events.acceptMany(
        t.tenantId,
        Array.from({ length: 5 }, (_, i) => ({ event_id: `h${i}`, type: 'subscription.renewed', data: { i } })),
      ),
    );
    await t.engine.runDue();
    t.clock.advance(1 * S);
    await t.engine.runDue();
    assert.deepEqual(
      (await statuses(t, ids)).map(([s]) => s),
      Array(5).fill('held'),
    );
    await t.engine.endpoints.update(t.tenantId, endpoint.id, { status: 'paused' });
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, 5);
    assert.deepEqual(await statuses(t, ids), Array(5).fill(['failed', ENDPOINT_PAUSED]));

    answer = 200;
    await t.engine.breakers.reset({ tenantId: t.tenantId });
    const { replay, after } = await reactivateAndReplay(t, endpoint.id);
    assert.equal(replay.selected, 5);
    assert.equal(after?.succeeded, 5);
  } finally {
    await rx.close();
    await t.close();
  }
});

test('a window replay scheduled before a pause sends nothing once paused: its deliveries end failed (endpoint_paused) and the replay counts them done and failed', async () => {
  const t = await testEngine();
  let answer = 500;
  const rx = await startReceiver(() => answer, { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'strict' });
    const ids = deliveryIds(
      await t.engine.events.acceptMany(
        t.tenantId,
        Array.from({ length: 3 }, (_, i) => ({ event_id: `w${i}`, type: 'a.b', data: { i } })),
      ),
    );
    await settle(t.engine, t.clock);
    assert.deepEqual(
      (await statuses(t, ids)).map(([s]) => s),
      ['failed', 'failed', 'failed'],
    );
    const sent = rx.received.length;
    answer = 200;
    t.clock.advance(1 * MIN);
    // The replay is scheduled while active; the endpoint pauses before any worker claims it.
    const replay = await t.engine.replays.window(t.tenantId, endpoint.id);
    assert.equal(replay.selected, 3);
    await t.engine.endpoints.update(t.tenantId, endpoint.id, { status: 'paused' });
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, sent, 'a paused endpoint is not attempted, replays included');
    assert.deepEqual(await statuses(t, ids), Array(3).fill(['failed', ENDPOINT_PAUSED]));
    const after = await t.store.replays.getReplay(t.tenantId, replay.id);
    assert.deepEqual([after?.attempted, after?.succeeded, after?.failed], [3, 0, 3], 'the replay is done');
    // Reactivated, the next replay recovers them.
    const { replay: again, after: done } = await reactivateAndReplay(t, endpoint.id);
    assert.equal(again.selected, 3);
    assert.deepEqual([done?.attempted, done?.succeeded], [3, 3]);
    assert.equal(rx.received.length, sent + 3);
  } finally {
    await rx.close();
  }
});
