// A claim that can take nothing is not repeated until something could have changed (docs/performance.md#dry-claims):
// a backlog on one endpoint whose lane is saturated makes every claim walk that endpoint's due rows and take none, so
// the dispatcher waits for the lane to run low, for new work or for its re-check instead of claiming on every wake.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { systemClock } from '../src/clock.ts';
import type { ClaimOptions } from '../src/store/queue/queue-store.ts';
import type { ClaimedDelivery, Store } from '../src/store/store.ts';
import { until } from '../testing/deadline.ts';
import { tempStore, testEngine } from '../testing/harness.ts';

const EVENTS = 3000;
const BATCH = 100;

test('a backlog on one saturated endpoint: empty claims are not repeated on every lane wake', {
  timeout: 60_000,
}, async () => {
  const temp = await tempStore();
  const claims = { full: 0, partial: 0, empty: 0 };
  // The real store, counting what each claim took.
  const queue = {
    ...temp.store.queue,
    async claimDue(o: ClaimOptions): Promise<ClaimedDelivery[]> {
      const got = await temp.store.queue.claimDue(o);
      if (got.length === 0) claims.empty++;
      else if (got.length >= o.limit) claims.full++;
      else claims.partial++;
      return got;
    },
  };
  const store = new Proxy(temp.store, {
    get(target, prop) {
      if (prop === 'queue') return queue;
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  }) as Store;
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const t = await testEngine({
    store,
    clock: systemClock as never,
    dispatcher: { batchSize: BATCH, maxInFlight: 4 * BATCH, logAttempts: false },
  });
  try {
    await t.engine.endpoints.create(t.tenantId, {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      max_concurrency: 10,
    });
    await t.engine.events.acceptMany(
      t.tenantId,
      Array.from({ length: EVENTS }, (_, i) => ({ type: 'a.b', data: { i } })),
    );
    t.engine.start();
    await until(
      () => t.store.reporting.countByStatus(),
      (c) => c.succeeded === EVENTS,
      { what: `all ${EVENTS} deliveries succeeded`, timeoutMs: 50_000 },
    );
    assert.equal(received, EVENTS, 'each delivery sent once');
    // Every full claim leaves the one lane saturated. A dispatcher that claims again at once, and on each wake while
    // the lane is still saturated, makes about two empty claims per full one (and one per completion in the tail); this
    // one makes at most one per re-check period.
    assert.ok(claims.full >= EVENTS / BATCH / 2, `claims: ${JSON.stringify(claims)}`);
    assert.ok(claims.empty < claims.full, `too many empty claims: ${JSON.stringify(claims)}`);
    console.log(`# claims ${JSON.stringify(claims)}`);
  } finally {
    server.closeAllConnections();
    server.close();
    await t.close();
    await temp.cleanup();
  }
});
