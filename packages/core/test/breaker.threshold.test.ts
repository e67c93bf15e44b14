// The breaker's 80 % edge (docs/rules.md#breaker-open) through the whole engine (dispatcher, real receiver, store window), with distinct
// deliveries attempted once each, so it holds whether the window counts attempts or deliveries by their latest attempt.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startReceiver } from '../testing/receiver.ts';
import { breakerEngine } from './breaker-fixtures.ts';

/**
 * Sends `ok` deliveries that succeed, then `failing` that get a 500, each a distinct event attempted once
 * (the clock never moves, so no retry is due). Successes first: the failure ratio only rises while the failures
 * land, so the breaker sees its highest ratio last and opens only if the final window reaches the edge.
 */
async function run(ok: number, failing: number) {
  const t = await breakerEngine();
  const rx = await startReceiver((_n, req) => (JSON.parse(req.body.toString('utf8')).data.fail ? 500 : 200), {
    clock: t.clock,
  });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments' });
    const batch = (n: number, fail: boolean) =>
      Array.from({ length: n }, (_, i) => ({
        event_id: `${fail ? 'bad' : 'good'}-${i}`,
        type: 'subscription.renewed',
        data: { fail },
      }));
    if (ok > 0) {
      await t.engine.events.acceptMany(t.tenantId, batch(ok, false));
      await t.engine.runDue();
    }
    await t.engine.events.acceptMany(t.tenantId, batch(failing, true));
    await t.engine.runDue();
    assert.equal(rx.received.length, ok + failing, 'every delivery attempted exactly once');
    const counts = await t.store.reporting.countByStatus();
    assert.equal(counts.succeeded, ok);
    assert.equal(counts.held ?? 0, 0, 'the breaker opened only after the last attempt, if at all');
    const st = await t.engine.breakers.status({ tenantId: t.tenantId });
    assert.deepEqual(
      { deliveries: st.window.deliveries, failures: st.window.failures },
      { deliveries: ok + failing, failures: failing },
    );
    return { state: st.state, reasons: t.transitions.map((x) => `${x.from}->${x.to}:${x.reason}`) };
  } finally {
    await rx.close();
    await t.close();
  }
}

test('4 of 5 distinct deliveries failing open the tenant breaker; 3 of 5 do not', async () => {
  assert.deepEqual(await run(1, 4), { state: 'open', reasons: ['closed->open:failure_ratio'] });
  assert.deepEqual(await run(2, 3), { state: 'closed', reasons: [] });
});

test('the edge is exactly 80 %: 80 of 100 failing deliveries open it, 79 of 100 do not', async () => {
  assert.deepEqual(await run(20, 80), { state: 'open', reasons: ['closed->open:failure_ratio'] });
  assert.deepEqual(await run(21, 79), { state: 'closed', reasons: [] });
});

test('fewer than 5 deliveries never open it, even all failing; the 5th does', async () => {
  assert.deepEqual(await run(0, 4), { state: 'closed', reasons: [] });
  assert.deepEqual(await run(0, 5), { state: 'open', reasons: ['closed->open:failure_ratio'] });
});
