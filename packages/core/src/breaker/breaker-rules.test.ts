import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PAYMENTS } from '../policy/presets.ts';
import * as rules from './breaker-rules.ts';

const rule = PAYMENTS.breaker!;
const MIN = 60_000;
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
  assert.deepEqual(rules.admit(rule, probing, 'dlv_b', T + 5 * MIN, 120_000), { kind: 'hold', until: T + 5 * MIN + 30_000 });
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
