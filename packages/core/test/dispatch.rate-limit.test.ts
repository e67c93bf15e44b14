// Rate limit per endpoint (docs/rules.md#rate-limit): 1,000 deliveries to an endpoint limited to 50/s arrive at 50/s
// ± 10 %, measured by their arrival times at a loopback receiver on the injected clock; no attempt is spent waiting.
// dispatch.rate-limit.postgres.test.ts runs two workers on one PostgreSQL bucket.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';
import { acceptAll, assertPace, drive, RATE } from './fixtures/rate-pacing.ts';

const N = 1000;

test(`SQLite: ${N} deliveries to an endpoint limited to ${RATE}/s arrive at ${RATE}/s ± 10 %, none spending an attempt to wait`, async () => {
  const t = await testEngine();
  const rx = await startReceiver(() => 200, { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, {
      url: rx.url,
      max_concurrency: 20,
      rate_limit_per_s: RATE,
    });
    assert.equal(endpoint.rateLimitPerS, RATE);
    await acceptAll(t.engine, t.tenantId, N);
    await drive(t.engine, t.clock);
    assertPace(rx.received, N);
    assert.deepEqual(await t.store.reporting.countQueued(), { pending: 0, delivering: 0, held: 0 });
    const page = await t.store.reporting.listDeliveries({ tenantId: t.tenantId, status: 'succeeded' }, null, N);
    assert.equal(page.items.length, N);
    assert.ok(
      page.items.every((d) => d.attemptCount === 1),
      'waiting for the rate limit spent no attempt',
    );
  } finally {
    await rx.close();
    await t.close();
  }
});
