// Retention (docs/rules.md#retention): old terminal deliveries and their attempts are purged in small batches; nothing else is.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ingest } from '../src/ingest.ts';
import { purgeExpired } from '../src/maintenance/retention.ts';
import { DEFAULT_MONEY_RULES } from '../src/policy/money-rules.ts';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';
import { settle } from '../testing/settle.ts';
import { DAY } from '../testing/time.ts';

test('purges only terminal deliveries (and their attempts, events) past retention, in batches', async () => {
  const t = await testEngine({ maintenance: { retention: { batch: 1 } } });
  const rx = await startReceiver((_n, req) => (JSON.parse(req.body.toString()).type === 'bad' ? 500 : 200), {
    clock: t.clock,
  });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'brief' });
    const ok = await t.engine.events.accept(t.tenantId, { event_id: 'old-ok', type: 'good', data: {} });
    const bad = await t.engine.events.accept(t.tenantId, { event_id: 'old-bad', type: 'bad', data: {} });
    // An old delivery that is still waiting (not terminal) must survive whatever its age.
    const waiting = await new Ingest({ store: t.store, clock: t.clock, moneyRules: () => DEFAULT_MONEY_RULES }).prepare(
      t.tenantId,
      { event_id: 'old-waiting', type: 'good', data: {} },
    );
    waiting.deliveries = [
      { id: 'dlv_WAITING', endpointId: endpoint.id, status: 'pending', nextAttemptAt: t.clock.now() + 365 * DAY },
    ];
    await t.store.events.acceptEvents([waiting]);
    await settle(t.engine, t.clock, { until: t.clock.now() + DAY });
    assert.equal((await t.store.reporting.getDelivery(t.tenantId, bad.deliveries[0].id))?.status, 'failed');
    assert.equal((await t.store.reporting.listAttempts(bad.deliveries[0].id)).length, 4);

    t.clock.advance(31 * DAY);
    const fresh = await t.engine.events.accept(t.tenantId, { event_id: 'new-ok', type: 'good', data: {} });
    await t.engine.runDue();

    const r = await t.engine.maintenance.run();
    assert.deepEqual({ d: r.purged.deliveries, e: r.purged.events }, { d: 2, e: 2 });
    assert.equal(await t.store.reporting.getDelivery(t.tenantId, ok.deliveries[0].id), null);
    assert.equal(await t.store.reporting.getDelivery(t.tenantId, bad.deliveries[0].id), null);
    assert.deepEqual(await t.store.reporting.listAttempts(bad.deliveries[0].id), [], 'attempts go with their delivery');
    assert.equal(await t.store.events.getEvent(t.tenantId, 'old-ok'), null);
    assert.equal((await t.store.reporting.getDelivery(t.tenantId, 'dlv_WAITING'))?.status, 'pending');
    assert.notEqual(await t.store.events.getEvent(t.tenantId, 'old-waiting'), null);
    assert.equal((await t.store.reporting.getDelivery(t.tenantId, fresh.deliveries[0].id))?.status, 'succeeded');
    assert.equal((await t.store.reporting.listAttempts(fresh.deliveries[0].id)).length, 1);

    // Retention is configurable; a second pass finds nothing more.
    assert.deepEqual(await purgeExpired(t.store, t.clock.now(), { deliveriesMs: 40 * DAY }), {
      deliveries: 0,
      events: 0,
      deliveryMinutes: 0,
      breakerWindow: 0,
      outbox: 0,
      portalLinks: 0,
      audit: 0,
      idempotencyKeys: 0,
      tenantUsage: 0,
    });
  } finally {
    await rx.close();
    await t.close();
  }
});

test('old breaker window rows are purged', async () => {
  const t = await testEngine();
  const rx = await startReceiver(() => 200, { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments' });
    await t.engine.events.accept(t.tenantId, { type: 'x', data: {} });
    await t.engine.runDue();
    assert.equal((await t.store.breakers.breakerWindow(`tenant:${t.tenantId}`, t.clock.now() - 60_000)).deliveries, 1);
    t.clock.advance(2 * DAY);
    const r = await t.engine.maintenance.run();
    assert.equal(r.purged.breakerWindow, 1);
  } finally {
    await rx.close();
    await t.close();
  }
});
