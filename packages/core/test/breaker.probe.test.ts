// Breaker open → probing (docs/rules.md#breaker-probe) → closed/open on a virtual clock: one probe per cycle, doubling pauses capped at 30 min,
// release of every held delivery at once, manual reset, and the 30-day age limit for held deliveries.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Breaker } from '../src/breaker/breaker-gate.ts';
import { silentLogger } from '../src/logger.ts';
import { PAYMENTS } from '../src/policy/presets.ts';
import { startReceiver } from '../testing/receiver.ts';
import { settle } from '../testing/settle.ts';
import { breakerEngine, DAY, events, MIN, S } from './breaker-fixtures.ts';

test('with 50 deliveries due, each cycle attempts exactly one probe; pauses are 5, 10, 20, 30, 30 min', async () => {
  const t = await breakerEngine();
  const rx = await startReceiver(() => 500, { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments' });
    const t0 = t.clock.now();
    await t.engine.events.acceptMany(t.tenantId, events(5));
    await t.engine.runDue();
    await t.engine.events.acceptMany(t.tenantId, events(45, 'late'));
    await settle(t.engine, t.clock, { until: t0 + 100 * MIN });

    // The first open, then one reopen per failed probe: 5, 10, 20, 40 → capped at 30, 30.
    const opens = t.transitions.filter((x) => x.to === 'open');
    assert.deepEqual(
      opens.map((x) => x.pauseMs / MIN),
      [5, 10, 20, 30, 30, 30],
    );
    const probes = t.transitions.filter((x) => x.to === 'probing');
    assert.deepEqual(
      probes.map((x) => (x.at - t0) / MIN),
      [5, 15, 35, 65, 95],
    );
    // Every receiver hit after the first five is a probe, exactly one per cycle.
    const hits = rx.received.slice(5).map((r) => (r.at - t0) / MIN);
    assert.deepEqual(
      hits,
      probes.map((x) => (x.at - t0) / MIN),
    );
    const counts = await t.store.reporting.countByStatus();
    assert.equal(counts.held + counts.pending, 50, JSON.stringify(counts));
    const probeAttempts = (
      await Promise.all(
        [...new Set(probes.map((p) => p.probeDeliveryId!))].map((id) => t.store.reporting.listAttempts(id)),
      )
    )
      .flat()
      .filter((a) => a.trigger === 'probe');
    assert.equal(probeAttempts.length, probes.length);
  } finally {
    await rx.close();
    await t.close();
  }
});

test('a successful probe closes it and every held delivery is attempted in the same virtual instant', async () => {
  const t = await breakerEngine();
  const rx = await startReceiver((n) => (n <= 5 ? 500 : 200), { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments' });
    const t0 = t.clock.now();
    await t.engine.events.acceptMany(t.tenantId, events(5));
    await t.engine.runDue();
    t.clock.advance(1 * MIN);
    const late = await t.engine.events.acceptMany(t.tenantId, events(20, 'late'));
    await t.engine.runDue();
    assert.equal((await t.store.reporting.countByStatus()).held, 25);
    await settle(t.engine, t.clock);

    assert.equal(rx.received.length, 5 + 25);
    const after = rx.received.slice(5).map((r) => r.at - t0);
    assert.deepEqual(new Set(after), new Set([5 * MIN]), 'the probe and every released delivery go at the probe time');
    assert.deepEqual(
      t.transitions.map((x) => `${x.from}>${x.to}`),
      ['closed>open', 'open>probing', 'probing>closed'],
    );
    const st = await t.engine.breakers.status({ tenantId: t.tenantId });
    assert.equal(st.state, 'closed');
    assert.equal(st.pauseMs, 0);
    assert.equal((await t.store.reporting.countByStatus()).succeeded, 25);
    for (const r of late) {
      if (r instanceof Error) throw r;
      const d = await t.store.reporting.getDelivery(t.tenantId, r.deliveries[0].id);
      assert.equal(d?.attemptCount, 1, 'held time spent no attempts');
    }
  } finally {
    await rx.close();
    await t.close();
  }
});

test('a probe that never records (its worker died) does not wedge the breaker', async () => {
  const t = await breakerEngine({ breaker: { staleProbeMs: 2 * MIN } });
  const rx = await startReceiver(() => 200, { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments' });
    const key = `tenant:${t.tenantId}`;
    const now = t.clock.now();
    assert.ok(
      await t.store.breakers.saveBreaker(
        {
          scopeKey: key,
          tenantId: t.tenantId,
          state: 'probing',
          pauseMs: 5 * MIN,
          openedAt: now - 10 * MIN,
          nextProbeAt: now - 1,
          probeDeliveryId: 'dlv_GONE',
          updatedAt: now,
        },
        null,
      ),
    );
    await t.engine.events.acceptMany(t.tenantId, events(3));
    await t.engine.runDue();
    assert.equal(rx.received.length, 0, 'a fresh probe is respected');
    t.clock.advance(2 * MIN);
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, 3);
    assert.deepEqual(
      t.transitions.map((x) => x.reason),
      ['probe_stale', 'probe_succeeded'],
    );
  } finally {
    await rx.close();
    await t.close();
  }
});

test('two workers with separate breakers on one store: still exactly one probe', async () => {
  const t = await breakerEngine({ breaker: { cacheMs: 0 } });
  const rx = await startReceiver(() => 500, { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments', max_concurrency: 100 });
    const t0 = t.clock.now();
    await t.engine.events.acceptMany(t.tenantId, events(40));
    await t.engine.runDue();
    assert.equal((await t.engine.breakers.status({ tenantId: t.tenantId })).state, 'open');
    const hits = rx.received.length;
    // Two breaker instances stand for two processes: no shared memory, only the store.
    const other = new Breaker({ store: t.store, clock: t.clock, logger: silentLogger, cacheMs: 0 });
    const own = new Breaker({ store: t.store, clock: t.clock, logger: silentLogger, cacheMs: 0 });
    t.clock.set(t0 + 5 * MIN);
    const due = await t.store.queue.claimDue({
      now: t.clock.now(),
      limit: 100,
      leaseUntil: t.clock.now() + MIN,
      workerId: 'wrk_A',
      saturatedEndpoints: [],
    });
    assert.ok(due.length >= 40, `claimed ${due.length}`);
    const gates = [own, other];
    const admissions = await Promise.all(due.map((c, i) => gates[i % 2].admit(c, PAYMENTS, t.clock.now())));
    const sends = admissions.filter((a) => a.kind === 'send');
    assert.equal(sends.length, 1);
    assert.deepEqual(sends[0], { kind: 'send', probe: true });
    assert.ok(
      admissions.filter((a) => a.kind === 'hold').every((a) => a.kind === 'hold' && a.until === t.clock.now() + 30 * S),
    );
    assert.equal(rx.received.length, hits);
  } finally {
    await rx.close();
    await t.close();
  }
});

test('manual reset closes it at once and releases every held delivery', async () => {
  const t = await breakerEngine();
  const rx = await startReceiver((n) => (n <= 5 ? 500 : 200), { clock: t.clock });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments' });
    await t.engine.events.acceptMany(t.tenantId, events(5));
    await t.engine.runDue();
    t.clock.advance(10 * S);
    await t.engine.events.acceptMany(t.tenantId, events(7, 'late'));
    await t.engine.runDue();
    assert.equal((await t.store.reporting.countByStatus()).held, 12);
    const resetAt = t.clock.now();
    const st = await t.engine.breakers.reset({ tenantId: t.tenantId });
    assert.equal(st.state, 'closed');
    assert.equal(st.window.deliveries, 0, 'counters reset');
    await t.engine.runDue();
    assert.equal(rx.received.length, 5 + 12);
    assert.ok(rx.received.slice(5).every((r) => r.at === resetAt));
    assert.deepEqual(
      t.transitions.map((x) => x.reason),
      ['failure_ratio', 'manual_reset'],
    );
    // Resetting a closed breaker is harmless; an unknown endpoint is a 404.
    assert.equal((await t.engine.breakers.reset(`tenant:${t.tenantId}`)).state, 'closed');
    await assert.rejects(t.engine.breakers.reset({ tenantId: t.tenantId, endpointId: 'ep_NOPE' }), {
      code: 'endpoint_not_found',
    });
    assert.equal((await t.engine.breakers.status({ tenantId: t.tenantId, endpointId: endpoint.id })).state, 'closed');
    assert.equal((await t.engine.breakers.list(t.tenantId)).length, 1);
  } finally {
    await rx.close();
    await t.close();
  }
});

test('the 30-day age limit still applies to held deliveries: failed with the age reason, no attempt spent', async () => {
  const t = await breakerEngine();
  const rx = await startReceiver(() => 500, { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'payments-long-pause' });
    const t0 = t.clock.now();
    await t.engine.events.acceptMany(t.tenantId, events(5));
    await t.engine.runDue();
    const [late] = await t.engine.events.acceptMany(t.tenantId, events(1, 'late'));
    if (late instanceof Error) throw late;
    await settle(t.engine, t.clock);
    const d = await t.store.reporting.getDelivery(t.tenantId, late.deliveries[0].id);
    assert.equal(d?.status, 'failed');
    assert.equal(d?.terminalReason, '30-day age limit reached');
    assert.equal(d?.attemptCount, 0);
    assert.equal(d?.updatedAt, t0 + 30 * DAY + 1, 'it fails right at the limit, not at the next probe');
    assert.equal(rx.received.length, 5);
  } finally {
    await rx.close();
    await t.close();
  }
});
