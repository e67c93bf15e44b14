// Window replays (docs/rules.md#replay) on a virtual clock: the default window is the last 24 h (inclusive), and the quota of
// 20 per tenant is per UTC day, so it resets at UTC midnight exactly.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../src/clock.ts';
import { isHooklineError } from '../src/errors.ts';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';
import { H, MIN } from '../testing/time.ts';

/** An engine whose only endpoint always answers 400 (strict policy: `failed` at once, and again after each replay). */
async function failingEndpoint(start: number) {
  const t = await testEngine({ clock: new VirtualClock(start) });
  const rx = await startReceiver(() => 400, { clock: t.clock });
  const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'strict' });
  return {
    ...t,
    endpoint,
    rx,
    /** Accepts one event and runs it: a `failed` delivery whose last attempt is now. */
    async failedDelivery(eventId: string): Promise<string> {
      const r = await t.engine.events.accept(t.tenantId, { event_id: eventId, type: 'order.created', data: {} });
      await t.engine.runDue();
      const id = r.deliveries[0].id;
      assert.equal((await t.store.reporting.getDelivery(t.tenantId, id))?.status, 'failed');
      return id;
    },
    async close() {
      await rx.close();
      await t.close();
    },
  };
}

const quotaExceeded = (err: unknown) =>
  isHooklineError(err) && err.code === 'replay_quota_exceeded' && err.status === 429;

test('the window-replay quota is 20 per tenant per UTC day and resets at UTC midnight exactly', async () => {
  const t = await failingEndpoint(Date.UTC(2026, 0, 5, 23, 0));
  try {
    const id = await t.failedDelivery('q1');
    // Each replay selects the delivery (it fails again, so it is selectable again): none is an empty replay.
    for (let i = 0; i < 20; i++) {
      t.clock.advance(MIN);
      const rp = await t.engine.replays.window(t.tenantId, t.endpoint.id);
      assert.equal(rp.selected, 1, `replay ${i + 1}`);
      await t.engine.runDue();
      assert.equal((await t.store.reporting.getDelivery(t.tenantId, id))?.status, 'failed');
    }
    await assert.rejects(t.engine.replays.window(t.tenantId, t.endpoint.id), quotaExceeded, 'the 21st of the day');
    t.clock.set(Date.UTC(2026, 0, 6) - 1);
    await assert.rejects(
      t.engine.replays.window(t.tenantId, t.endpoint.id),
      quotaExceeded,
      'still the same UTC day at 23:59:59.999',
    );
    // 00:00:00.000 UTC: a new day, a new quota, though the day's 20 replays are all less than an hour old.
    t.clock.set(Date.UTC(2026, 0, 6));
    assert.equal((await t.engine.replays.window(t.tenantId, t.endpoint.id)).selected, 1);
    await t.engine.runDue();
    for (let i = 1; i < 20; i++) {
      assert.equal((await t.engine.replays.window(t.tenantId, t.endpoint.id)).selected, 1, `new day, replay ${i + 1}`);
      await t.engine.runDue();
    }
    await assert.rejects(
      t.engine.replays.window(t.tenantId, t.endpoint.id),
      quotaExceeded,
      'the new day has its own 20',
    );
  } finally {
    await t.close();
  }
});

test('a window replay without since/until selects what failed in the last 24 h, boundary included, nothing older', async () => {
  const t0 = Date.UTC(2026, 0, 5, 12);
  const t = await failingEndpoint(t0);
  try {
    const older = await t.failedDelivery('older'); // last attempt at t0 - it will be 24 h + 1 h old
    t.clock.set(t0 + H);
    const edge = await t.failedDelivery('edge'); // last attempt exactly 24 h before the replay
    t.clock.set(t0 + H + 2 * H);
    const recent = await t.failedDelivery('recent');
    t.clock.set(t0 + H + 24 * H);
    const rp = await t.engine.replays.window(t.tenantId, t.endpoint.id);
    assert.equal(rp.sinceMs, t.clock.now() - 24 * H);
    assert.equal(rp.untilMs, t.clock.now());
    assert.equal(rp.selected, 2);
    const status = async (id: string) => (await t.store.reporting.getDelivery(t.tenantId, id))?.status;
    assert.equal(await status(older), 'failed', 'older than 24 h: not selected');
    assert.equal(await status(edge), 'pending', 'exactly 24 h old: selected (since is inclusive)');
    assert.equal(await status(recent), 'pending');
    // The replay attempts exactly the two it selected.
    await t.engine.runDue();
    assert.equal(t.rx.received.filter((r) => r.headers['x-webhook-id'] === 'edge').length, 2);
    assert.equal(t.rx.received.filter((r) => r.headers['x-webhook-id'] === 'recent').length, 2);
    assert.equal(
      t.rx.received.filter((r) => r.headers['x-webhook-id'] === 'older').length,
      1,
      'the older one was never replayed',
    );
  } finally {
    await t.close();
  }
});

test('a window replay on an unknown endpoint is refused with endpoint_not_found, in any tenant but its own', async () => {
  const t = await failingEndpoint(Date.UTC(2026, 0, 5, 12));
  try {
    await assert.rejects(t.engine.replays.window(t.tenantId, 'ep_nope'), { code: 'endpoint_not_found', status: 404 });
    await t.store.catalog.createTenant({
      id: 'ten_OTHER',
      name: 'Other',
      ownerEmails: ['other@example.test'],
      operationsEndpointId: null,
      notifyEmail: true,
      createdAt: t.clock.now(),
      updatedAt: t.clock.now(),
    });
    await assert.rejects(t.engine.replays.window('ten_OTHER', t.endpoint.id), { code: 'endpoint_not_found' });
  } finally {
    await t.close();
  }
});

test('a window of one instant (since == until) is accepted and selects what was attempted at that instant', async () => {
  const t0 = Date.UTC(2026, 0, 5, 12, 0, 0, 250);
  const t = await failingEndpoint(t0);
  try {
    const at = await t.failedDelivery('instant'); // last attempt at t0
    t.clock.advance(MIN);
    await assert.rejects(
      t.engine.replays.window(t.tenantId, t.endpoint.id, { since: t0 + 1, until: t0 }),
      (e: any) =>
        e.code === 'invalid_request' &&
        e.status === 400 &&
        e.message === 'request is invalid: since must not be after until',
    );
    const before = await t.engine.replays.window(t.tenantId, t.endpoint.id, { since: t0 - 1, until: t0 - 1 });
    assert.equal(before.selected, 0, 'the instant before the attempt');
    const rp = await t.engine.replays.window(t.tenantId, t.endpoint.id, { since: t0, until: t0 });
    assert.match(rp.id, /^rpl_/);
    assert.deepEqual(
      { ...rp, id: undefined },
      {
        id: undefined,
        tenantId: t.tenantId,
        endpointId: t.endpoint.id,
        kind: 'window',
        sinceMs: t0,
        untilMs: t0,
        includeSkipped: false,
        selected: 1,
        attempted: 0,
        succeeded: 0,
        failed: 0,
        createdAt: t0 + MIN,
      },
    );
    assert.equal((await t.store.reporting.getDelivery(t.tenantId, at))?.status, 'pending');
  } finally {
    await t.close();
  }
});

test('a window replay leaves skipped deliveries alone unless includeSkipped is true', async () => {
  const t0 = Date.UTC(2026, 0, 5, 12);
  const t = await failingEndpoint(t0);
  try {
    await t.engine.endpoints.update(t.tenantId, t.endpoint.id, { status: 'paused' });
    const skipped = (await t.engine.events.accept(t.tenantId, { event_id: 'sk', type: 'order.created', data: {} }))
      .deliveries[0].id;
    assert.equal((await t.store.reporting.getDelivery(t.tenantId, skipped))?.status, 'skipped');
    await t.engine.endpoints.update(t.tenantId, t.endpoint.id, { status: 'active' });
    t.clock.advance(MIN);
    const plain = await t.engine.replays.window(t.tenantId, t.endpoint.id);
    assert.deepEqual([plain.selected, plain.includeSkipped], [0, false]);
    const explicitFalse = await t.engine.replays.window(t.tenantId, t.endpoint.id, { includeSkipped: false });
    assert.deepEqual([explicitFalse.selected, explicitFalse.includeSkipped], [0, false]);
    assert.equal((await t.store.reporting.getDelivery(t.tenantId, skipped))?.status, 'skipped');
    const withSkipped = await t.engine.replays.window(t.tenantId, t.endpoint.id, { includeSkipped: true });
    assert.deepEqual([withSkipped.selected, withSkipped.includeSkipped], [1, true]);
    assert.equal((await t.store.reporting.getDelivery(t.tenantId, skipped))?.status, 'pending');
  } finally {
    await t.close();
  }
});

test('Retry-After of the 21st replay rounds the rest of the UTC day up to whole seconds; max is the default 20', async () => {
  const t = await failingEndpoint(Date.UTC(2026, 0, 5, 23, 58, 0, 400));
  try {
    await t.failedDelivery('ra');
    for (let i = 0; i < 20; i++) {
      assert.equal((await t.engine.replays.window(t.tenantId, t.endpoint.id)).selected, 1);
      await t.engine.runDue();
    }
    t.clock.set(Date.UTC(2026, 0, 5, 23, 59, 58, 700)); // 1.3 s before midnight
    await assert.rejects(
      t.engine.replays.window(t.tenantId, t.endpoint.id),
      (e: any) => quotaExceeded(e) && e.params.max === 20 && e.retryAfterSec === 2,
    );
  } finally {
    await t.close();
  }
});
