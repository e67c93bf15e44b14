// The dispatcher on the real clock: in-process wake-up, per-endpoint concurrency caps, group-committed records.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { systemClock } from '../src/clock.ts';
import { until, within } from '../testing/deadline.ts';
import { testEngine } from '../testing/harness.ts';

async function slowReceiver(delayMs: number) {
  let active = 0;
  let maxActive = 0;
  let count = 0;
  let arrived = 0;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const server = createServer((req, res) => {
    arrived++;
    active++;
    maxActive = Math.max(maxActive, active);
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        active--;
        count++;
        res.end('ok');
        for (const w of waiters.filter((w) => count >= w.n)) w.resolve();
      }, delayMs),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    get maxActive() {
      return maxActive;
    },
    /** Requests answered so far. */
    get count() {
      return count;
    },
    /** Requests that reached the receiver so far, answered or not. */
    get arrived() {
      return arrived;
    },
    /** Resolves once `n` requests have been answered; fails naming the shortfall after `timeoutMs`. */
    reached: (n: number, timeoutMs = 15_000) =>
      within(
        `the receiver to answer ${n} requests (answered ${count})`,
        timeoutMs,
        new Promise<void>((resolve) => (count >= n ? resolve() : waiters.push({ n, resolve }))),
      ),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

test('a new event is sent at once, not on the next poll', { timeout: 10_000 }, async () => {
  // A one-minute poll: only the in-process wake-up can deliver within the test's 10 s.
  const t = await testEngine({ clock: systemClock as never, dispatcher: { pollMs: 60_000, logAttempts: false } });
  const rx = await slowReceiver(0);
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url });
    t.engine.start();
    await t.engine.events.accept(t.tenantId, { type: 'a.b', data: {} });
    await rx.reached(1);
    await t.engine.events.accept(t.tenantId, { type: 'a.b', data: {} });
    await rx.reached(2);
  } finally {
    rx.close();
    await t.close();
  }
});

test('an endpoint never sees more concurrent requests than its max_concurrency', { timeout: 20_000 }, async () => {
  const t = await testEngine({ clock: systemClock as never, dispatcher: { pollMs: 50, logAttempts: false } });
  const capped = await slowReceiver(15);
  const other = await slowReceiver(0);
  try {
    await t.engine.endpoints.create(t.tenantId, { url: capped.url, max_concurrency: 3, event_types: ['capped.*'] });
    await t.engine.endpoints.create(t.tenantId, { url: other.url, event_types: ['other.*'] });
    await t.engine.events.acceptMany(
      t.tenantId,
      Array.from({ length: 60 }, (_, i) => ({ type: 'capped.x', data: { i } })),
    );
    await t.engine.events.acceptMany(
      t.tenantId,
      Array.from({ length: 200 }, (_, i) => ({ type: 'other.x', data: { i } })),
    );
    t.engine.start();
    await Promise.all([capped.reached(60), other.reached(200)]);
    assert.ok(capped.maxActive <= 3, `saw ${capped.maxActive} concurrent requests`);
    assert.equal(capped.maxActive, 3, 'the cap is used, not undershot');
    await t.engine.stop();
    const counts = await t.store.reporting.countByStatus();
    assert.equal(counts.succeeded, 260);
  } finally {
    capped.close();
    other.close();
    await t.close();
  }
});

test('stopping hands back leased deliveries that never started; only the sends in flight are waited for', {
  timeout: 60_000,
}, async () => {
  const t = await testEngine({ clock: systemClock as never, dispatcher: { pollMs: 50, logAttempts: false } });
  const slow = await slowReceiver(400);
  try {
    await t.engine.endpoints.create(t.tenantId, { url: slow.url, max_concurrency: 2 });
    await t.engine.events.acceptMany(
      t.tenantId,
      Array.from({ length: 40 }, (_, i) => ({ type: 'a.b', data: { i } })),
    );
    t.engine.start();
    // 2 sending, the rest leased into the lane's queue.
    await until(
      () => t.store.reporting.countByStatus(),
      (c) => c.delivering === 40,
      { what: 'all 40 deliveries leased' },
    );
    // At most max_concurrency (2) requests can be unanswered when stop is called; a stop that kept sending from the
    // queue would get more answered (draining it would answer all 40).
    const answeredBeforeStop = slow.count;
    await t.engine.stopDispatching();
    assert.ok(
      slow.arrived <= answeredBeforeStop + 2,
      `${slow.arrived - answeredBeforeStop} requests were sent after stop was called with at most 2 in flight`,
    );
    assert.equal(slow.count, slow.arrived, 'stop waited for the sends in flight to be answered');
    const counts = await t.store.reporting.countByStatus();
    assert.equal(counts.delivering, 0, 'no lease left behind');
    assert.equal(counts.succeeded, slow.count, 'every answered send was recorded');
    assert.equal(counts.pending, 40 - slow.count, 'every delivery not sent was handed back');
    // Another worker (or this one restarted) takes them at once, not after the 90 s lease.
    t.engine.start();
    await slow.reached(40, 45_000); // 38 more at 2 × 400 ms: about 8 s of the receiver's own delay
  } finally {
    slow.close();
    await t.close();
  }
});
