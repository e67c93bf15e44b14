// docs/rules.md#catch-up: reactivating with catch_up replays everything that failed or was skipped since the pause
// began, once, under the 10,000 limit and the daily quota, end to end against a loopback receiver.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENDPOINT_PAUSED } from '../src/dispatch/attempt-pipeline.ts';
import type { HooklineError } from '../src/errors.ts';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';
import { settle } from '../testing/settle.ts';
import { H, MIN } from '../testing/time.ts';

type T = Awaited<ReturnType<typeof testEngine>>;

async function accept(t: T, ids: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const id of ids)
    out.push((await t.engine.events.accept(t.tenantId, { event_id: id, type: 'a.b', data: { id } })).deliveries[0].id);
  return out;
}
const statusOf = async (t: T, ids: string[]) =>
  Promise.all(
    ids.map(async (id) => {
      const d = await t.store.reporting.getDelivery(t.tenantId, id);
      return [d?.status, d?.terminalReason ?? null];
    }),
  );

test('pause, events arrive (skipped), in-progress ones fail endpoint_paused; reactivate with catch_up: each delivered exactly once, nothing older', async () => {
  const t = await testEngine();
  // strict: a 404 is permanent at once, a 500 retries.
  let answer = (id: string): number => (id === 'old' ? 404 : 500);
  const rx = await startReceiver((_n, r) => answer(JSON.parse(r.body.toString()).event_id), { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'strict' });
    const [old] = await accept(t, ['old']);
    const retrying = await accept(t, ['r1', 'r2', 'r3']);
    await t.engine.runDue();
    assert.deepEqual(await statusOf(t, [old, ...retrying]), [
      ['failed', 'client error 404 is permanent; last: HTTP 404'],
      ['pending', null],
      ['pending', null],
      ['pending', null],
    ]);
    t.clock.advance(MIN);
    const queued = await accept(t, ['q1', 'q2']); // never attempted when the pause begins
    await t.engine.endpoints.update(t.tenantId, endpoint.id, { status: 'paused' });
    t.clock.advance(MIN);
    const skipped = await accept(t, ['s1', 's2']);
    await settle(t.engine, t.clock);
    const sentBefore = rx.received.length;
    assert.equal(sentBefore, 4, 'nothing attempted while paused');
    assert.deepEqual(await statusOf(t, [...retrying, ...queued]), Array(5).fill(['failed', ENDPOINT_PAUSED]));
    assert.deepEqual(await statusOf(t, skipped), Array(2).fill(['skipped', null]));

    answer = () => 200;
    t.clock.advance(H);
    const { endpoint: back, replay } = await t.engine.endpoints.reactivate(t.tenantId, endpoint.id, {
      status: 'active',
      catch_up: true,
    });
    assert.equal(back.status, 'active');
    assert.equal(
      replay.selected,
      7,
      'three retrying, two queued, two skipped; not the one that failed before the pause',
    );
    assert.equal(replay.includeSkipped, true);
    await settle(t.engine, t.clock);
    const progress = await t.engine.replays.get(t.tenantId, replay.id);
    assert.deepEqual([progress.selected, progress.attempted, progress.succeeded, progress.failed], [7, 7, 7, 0]);
    const delivered = rx.received
      .slice(sentBefore)
      .map((r) => JSON.parse(r.body.toString()).event_id)
      .sort();
    assert.deepEqual(delivered, ['q1', 'q2', 'r1', 'r2', 'r3', 's1', 's2'], 'each exactly once');
    assert.deepEqual(
      await statusOf(t, [...retrying, ...queued, ...skipped]).then((s) => s.map(([x]) => x)),
      Array(7).fill('succeeded'),
    );
    assert.deepEqual(await statusOf(t, [old]), [['failed', 'client error 404 is permanent; last: HTTP 404']]);
  } finally {
    await rx.close();
    await t.close();
  }
});

test('catch_up: reactivated before the worker ended them, in-progress deliveries simply carry on and are not replayed twice', async () => {
  const t = await testEngine();
  const rx = await startReceiver(() => 200, { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url });
    const queued = await accept(t, ['q1']);
    await t.engine.endpoints.update(t.tenantId, endpoint.id, { status: 'paused' });
    const skipped = await accept(t, ['s1']);
    const { replay } = await t.engine.endpoints.reactivate(t.tenantId, endpoint.id, {
      status: 'active',
      catch_up: true,
    });
    assert.equal(replay.selected, 1, 'only the skipped one: the queued one is still pending');
    await settle(t.engine, t.clock);
    assert.deepEqual(rx.received.map((r) => JSON.parse(r.body.toString()).event_id).sort(), ['q1', 's1']);
    assert.deepEqual(
      (await statusOf(t, [...queued, ...skipped])).map(([s]) => s),
      ['succeeded', 'succeeded'],
    );
  } finally {
    await rx.close();
    await t.close();
  }
});

test('catch_up respects the replay quota (over it nothing changes, still paused) and the per-request limit (oldest first)', async () => {
  const t = await testEngine({ replayQuotaPerDay: 1, replayMaxDeliveries: 2 });
  const rx = await startReceiver(() => 200, { clock: t.clock });
  try {
    const code = (err: unknown) => (err as HooklineError).code;
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url });
    await assert.rejects(
      t.engine.endpoints.reactivate(t.tenantId, endpoint.id, { status: 'active', catch_up: true }),
      (e) => code(e) === 'endpoint_not_paused',
    );
    await assert.rejects(
      t.engine.endpoints.reactivate(t.tenantId, endpoint.id, { catch_up: true }),
      (e) => code(e) === 'catch_up_needs_reactivation',
    );
    await assert.rejects(
      t.engine.endpoints.update(t.tenantId, endpoint.id, { status: 'active', catch_up: true }),
      (e) => code(e) === 'catch_up_needs_reactivation',
    );

    await t.engine.endpoints.update(t.tenantId, endpoint.id, { status: 'paused' });
    t.clock.advance(MIN);
    const skipped = await accept(t, ['s1', 's2', 's3']);
    const first = await t.engine.endpoints.reactivate(t.tenantId, endpoint.id, { status: 'active', catch_up: true });
    assert.equal(first.replay.selected, 2, 'the limit');
    await settle(t.engine, t.clock);
    assert.deepEqual(
      (await statusOf(t, skipped)).map(([s]) => s),
      ['succeeded', 'succeeded', 'skipped'],
      'oldest first',
    );

    await t.engine.endpoints.update(t.tenantId, endpoint.id, { status: 'paused' });
    t.clock.advance(MIN);
    await accept(t, ['s4']);
    await assert.rejects(
      t.engine.endpoints.reactivate(t.tenantId, endpoint.id, { status: 'active', catch_up: true }),
      (e) => code(e) === 'replay_quota_exceeded' && (e as HooklineError).retryAfterSec! > 0,
    );
    assert.equal((await t.engine.endpoints.get(t.tenantId, endpoint.id)).status, 'paused', 'nothing changed');
  } finally {
    await rx.close();
    await t.close();
  }
});
