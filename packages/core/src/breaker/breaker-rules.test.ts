import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MIN } from '../../testing/time.ts';
import { PAYMENTS } from '../policy/presets.ts';
import * as rules from './breaker-rules.ts';

const rule = PAYMENTS.breaker!;
const T = Date.UTC(2026, 0, 1);
const closed = rules.closedRow('tenant:ten_1', 'ten_1', T);

test('window: ≥ 5 distinct deliveries and ≥ 80 % of them failed trip it', () => {
  assert.equal(rules.windowTrips(rule, { deliveries: 5, failures: 4 }), true);
  assert.equal(rules.windowTrips(rule, { deliveries: 4, failures: 4 }), false);
  assert.equal(rules.windowTrips(rule, { deliveries: 10, failures: 7 }), false);
  assert.equal(rules.windowTrips(rule, { deliveries: 100, failures: 0 }), false);
  assert.equal(rules.windowTrips(rule, { deliveries: 100, failures: 80 }), true);
});

test('window: one failing delivery retried many times is one delivery, and never trips it', () => {
  // The payments fast ladder's 10 attempts of one delivery: the store counts it once, by its latest attempt.
  assert.equal(rules.windowTrips(rule, { deliveries: 1, failures: 1 }), false);
  assert.equal(rules.afterWindow(rule, closed, { deliveries: 1, failures: 1 }, T), null);
  // Four failing deliveries beside one that a client error answered: 4 of 5 is 80 %.
  assert.equal(rules.windowTrips(rule, { deliveries: 5, failures: 4 }), true);
});

test('closed → open sets the first pause and the probe time; an open breaker is not reopened by the window', () => {
  const c = rules.afterWindow(rule, closed, { deliveries: 5, failures: 5 }, T + 1000)!;
  assert.equal(c.row.state, 'open');
  assert.equal(c.row.pauseMs, 5 * MIN);
  assert.equal(c.row.nextProbeAt, T + 1000 + 5 * MIN);
  assert.deepEqual(c.transition, { from: 'closed', to: 'open', reason: 'failure_ratio' });
  assert.equal(rules.afterWindow(rule, c.row, { deliveries: 50, failures: 50 }, T + 2000), null);
});

test('open: hold until the probe time, then one claim; probing: others re-check in 30 s', () => {
  const open = rules.afterWindow(rule, closed, { deliveries: 5, failures: 5 }, T)!.row;
  assert.deepEqual(rules.admit(rule, open, 'dlv_a', T + MIN, 120_000), { kind: 'hold', until: T + 5 * MIN });
  const a = rules.admit(rule, open, 'dlv_a', T + 5 * MIN, 120_000);
  assert.equal(a.kind, 'claim_probe');
  const probing = a.kind === 'claim_probe' ? a.change.row : open;
  assert.equal(probing.probeDeliveryId, 'dlv_a');
  assert.deepEqual(rules.admit(rule, probing, 'dlv_b', T + 5 * MIN, 120_000), {
    kind: 'hold',
    until: T + 5 * MIN + 30_000,
  });
  // The probe's own delivery, re-claimed after a lost lease, goes again; a stale probe is replaced.
  assert.equal(rules.admit(rule, probing, 'dlv_a', T + 6 * MIN, 120_000).kind, 'claim_probe');
  const stale = rules.admit(rule, probing, 'dlv_b', probing.updatedAt + 120_000, 120_000);
  assert.equal(stale.kind === 'claim_probe' && stale.change.transition.reason, 'probe_stale');
});

test('failed probes double the pause up to 30 min; a success closes and resets it', () => {
  let row = rules.afterWindow(rule, closed, { deliveries: 5, failures: 5 }, T)!.row;
  const pauses = [row.pauseMs / MIN];
  let now = T;
  for (let i = 0; i < 5; i++) {
    now = row.nextProbeAt!;
    const a = rules.admit(rule, row, `dlv_${i}`, now, 120_000);
    assert.equal(a.kind, 'claim_probe');
    if (a.kind !== 'claim_probe') return;
    const after = rules.afterProbe(rule, a.change.row, `dlv_${i}`, 'delivery_failure', now)!;
    assert.equal(after.row.nextProbeAt, now + after.row.pauseMs);
    row = after.row;
    pauses.push(row.pauseMs / MIN);
  }
  assert.deepEqual(pauses, [5, 10, 20, 30, 30, 30]);
  const a = rules.admit(rule, row, 'dlv_ok', row.nextProbeAt!, 120_000);
  if (a.kind !== 'claim_probe') throw new Error('expected a probe');
  // A client error proves the endpoint answers: it closes like a success.
  const done = rules.afterProbe(rule, a.change.row, 'dlv_ok', 'client_error', row.nextProbeAt!)!;
  assert.equal(done.row.state, 'closed');
  assert.equal(done.row.pauseMs, 0);
  assert.equal(done.row.nextProbeAt, null);
  // Not the probe any more (reset or replaced): nothing to do.
  assert.equal(rules.afterProbe(rule, a.change.row, 'dlv_other', 'success', row.nextProbeAt!), null);
});

test('versions always move, even within one millisecond; reset closes from open or probing', () => {
  const open = rules.afterWindow(rule, closed, { deliveries: 5, failures: 5 }, T)!.row;
  assert.ok(open.updatedAt > closed.updatedAt);
  const r = rules.reset(open, open.scopeKey, open.tenantId, T)!;
  assert.equal(r.row.state, 'closed');
  assert.ok(r.row.updatedAt > open.updatedAt);
  assert.equal(rules.reset(closed, closed.scopeKey, 'ten_1', T), null);
  assert.deepEqual(rules.scopeOfKey('endpoint:ep_1'), { scope: 'endpoint', id: 'ep_1' });
  assert.throws(() => rules.scopeOfKey('nope'));
});

test('scope keys: "<scope>:<id>" round-trips, the id may hold colons, anything else is refused by name', () => {
  assert.equal(rules.scopeKeyOf('tenant', 'ten_1'), 'tenant:ten_1');
  assert.deepEqual(rules.scopeOfKey(rules.scopeKeyOf('tenant', 'ten_1')), { scope: 'tenant', id: 'ten_1' });
  assert.deepEqual(rules.scopeOfKey('endpoint:ep:1'), { scope: 'endpoint', id: 'ep:1' });
  for (const bad of ['tenantx', 'endpoint', ':ep_1', 'other:ep_1', 'Tenant:ten_1']) {
    assert.throws(() => rules.scopeOfKey(bad), { message: `not a breaker scope key: ${bad}` }, bad);
  }
});

test('no breaker row or a closed one admits at once; the first version of a row is the time itself', () => {
  assert.deepEqual(rules.admit(rule, null, 'dlv_a', T, 120_000), { kind: 'send' });
  assert.deepEqual(rules.admit(rule, closed, 'dlv_a', T, 120_000), { kind: 'send' });
  assert.equal(rules.nextVersion(null, T), T);
  assert.equal(rules.nextVersion(closed, T + 5), T + 5);
  assert.equal(rules.nextVersion(closed, T - 5), T + 1, 'never behind the row it replaces');
});

test('probe claims and outcomes carry exact transitions and rows', () => {
  const open = rules.afterWindow(rule, closed, { deliveries: 5, failures: 5 }, T)!.row;
  const claimed = rules.admit(rule, open, 'dlv_a', T + 5 * MIN, 120_000);
  assert.deepEqual(claimed.kind === 'claim_probe' && claimed.change.transition, {
    from: 'open',
    to: 'probing',
    reason: 'probe_claimed',
  });
  const probing = claimed.kind === 'claim_probe' ? claimed.change.row : open;
  assert.deepEqual(probing, { ...open, state: 'probing', probeDeliveryId: 'dlv_a', updatedAt: T + 5 * MIN });
  const again = rules.admit(rule, probing, 'dlv_a', T + 6 * MIN, 120_000);
  assert.deepEqual(again.kind === 'claim_probe' && again.change.transition, {
    from: 'probing',
    to: 'probing',
    reason: 'probe_claimed',
  });

  const ok = rules.afterProbe(rule, probing, 'dlv_a', 'success', T + 6 * MIN)!;
  assert.deepEqual(ok, {
    row: { ...rules.closedRow(probing.scopeKey, probing.tenantId, T + 6 * MIN) },
    transition: { from: 'probing', to: 'closed', reason: 'probe_succeeded' },
  });
  const bad = rules.afterProbe(rule, probing, 'dlv_a', 'delivery_failure', T + 6 * MIN)!;
  assert.deepEqual(bad, {
    row: {
      ...probing,
      state: 'open',
      pauseMs: 10 * MIN,
      nextProbeAt: T + 16 * MIN,
      probeDeliveryId: null,
      updatedAt: T + 6 * MIN,
    },
    transition: { from: 'probing', to: 'open', reason: 'probe_failed' },
  });
  // Only a probing row has a probe to report on.
  assert.equal(rules.afterProbe(rule, null, 'dlv_a', 'success', T), null);
  assert.equal(rules.afterProbe(rule, { ...open, probeDeliveryId: 'dlv_a' }, 'dlv_a', 'success', T), null);
  assert.equal(rules.afterProbe(rule, closed, 'dlv_a', 'delivery_failure', T), null);
});

test('reset from probing closes with pause, probe and times cleared; nothing to reset without a row', () => {
  const open = rules.afterWindow(rule, closed, { deliveries: 5, failures: 5 }, T)!.row;
  const probing = { ...open, state: 'probing' as const, probeDeliveryId: 'dlv_a', pauseMs: 20 * MIN };
  const r = rules.reset(probing, probing.scopeKey, probing.tenantId, T + MIN)!;
  assert.deepEqual(r, {
    row: {
      scopeKey: 'tenant:ten_1',
      tenantId: 'ten_1',
      state: 'closed',
      pauseMs: 0,
      openedAt: null,
      nextProbeAt: null,
      probeDeliveryId: null,
      updatedAt: T + MIN,
    },
    transition: { from: 'probing', to: 'closed', reason: 'manual_reset' },
  });
  assert.equal(rules.reset(null, 'tenant:ten_1', 'ten_1', T), null);
});
