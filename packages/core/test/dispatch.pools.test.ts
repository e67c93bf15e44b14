// HTTP pools per endpoint: sized to the endpoint's max_concurrency, never shared with another endpoint on the same host.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { systemClock } from '../src/clock.ts';
import { testEngine } from '../testing/harness.ts';

/** A loopback receiver that holds requests open per path until released; counts concurrency per path. */
async function gatedReceiver() {
  const paths = new Map<string, { active: number; max: number; done: number; held: ServerResponse[]; open: boolean }>();
  const waiters: Array<{ check: () => boolean; resolve: () => void }> = [];
  const stateOf = (path: string) => {
    let s = paths.get(path);
    if (!s) paths.set(path, (s = { active: 0, max: 0, done: 0, held: [], open: false }));
    return s;
  };
  const notify = () => {
    for (const w of [...waiters]) if (w.check()) waiters.splice(waiters.indexOf(w), 1), w.resolve();
  };
  const server = createServer((req, res) => {
    const s = stateOf(req.url ?? '/');
    s.active++;
    s.max = Math.max(s.max, s.active);
    req.resume();
    req.on('end', () => {
      const finish = () => {
        s.active--;
        s.done++;
        res.end('ok');
        notify();
      };
      if (s.open) finish();
      else s.held.push(Object.assign(res, { finish }));
      notify();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    state: stateOf,
    /** Resolves when `check` holds; rejects after `ms` with `what` (every wait has a deadline). */
    until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
      if (check()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
        waiters.push({ check, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    release(path: string) {
      const s = stateOf(path);
      s.open = true;
      for (const res of s.held.splice(0)) (res as ServerResponse & { finish(): void }).finish();
    },
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

test('an endpoint capped at 50 reaches exactly 50 concurrent requests, never more', { timeout: 30_000 }, async () => {
  const t = await testEngine({ clock: systemClock as never, dispatcher: { pollMs: 50, logAttempts: false } });
  const rx = await gatedReceiver();
  try {
    await t.engine.endpoints.create(t.tenantId, { url: `${rx.base}/capped`, max_concurrency: 50 });
    await t.engine.events.acceptMany(
      t.tenantId,
      Array.from({ length: 120 }, (_, i) => ({ type: 'a.b', data: { i } })),
    );
    t.engine.start();
    const s = rx.state('/capped');
    // With a pool of 20 sockets per origin this never got past 20.
    await rx.until('50 requests in flight', () => s.active >= 50);
    rx.release('/capped');
    await rx.until('all 120 delivered', () => s.done >= 120);
    assert.equal(s.max, 50, `peak concurrency ${s.max}`);
  } finally {
    rx.close();
    await t.close();
  }
});

test("a stalled endpoint holding all its connections does not starve another tenant's endpoint on the same origin", {
  timeout: 60_000,
}, async () => {
  const t = await testEngine({ clock: systemClock as never, dispatcher: { pollMs: 50, logAttempts: false } });
  const rx = await gatedReceiver();
  const other = 'ten_OTHER';
  const now = systemClock.now();
  await t.store.catalog.createTenant({
    id: other,
    name: 'Other',
    ownerEmails: ['o@example.test'],
    operationsEndpointId: null,
    notifyEmail: true,
    createdAt: now,
    updatedAt: now,
  });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: `${rx.base}/stalled`, max_concurrency: 20, timeout_ms: 60_000 });
    await t.engine.endpoints.create(other, { url: `${rx.base}/healthy` });
    t.engine.start();
    await t.engine.events.acceptMany(
      t.tenantId,
      Array.from({ length: 40 }, (_, i) => ({ type: 'a.b', data: { i } })),
    );
    const stalled = rx.state('/stalled');
    await rx.until('the stalled endpoint to hold 20 requests', () => stalled.active >= 20);
    rx.release('/healthy');
    await t.engine.events.accept(other, { type: 'a.b', data: {} });
    // Well inside the stalled sends' 60 s timeout: the healthy endpoint is not queued behind them.
    await rx.until("the other tenant's delivery", () => rx.state('/healthy').done >= 1, 25_000);
    assert.equal(stalled.active, 20);
    assert.equal(stalled.done, 0);
  } finally {
    rx.close();
    await t.close();
  }
});
