import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MIN } from '../../testing/time.ts';
import {
  addFailures,
  emptySummaryState,
  type FailedDelivery,
  SUMMARY_WINDOW_MS,
  summaryDueAt,
  takeSummary,
} from './failure-summary.ts';

const T0 = Date.UTC(2026, 0, 5, 12);
const failed = (n: number, from = 0, money = false): FailedDelivery[] =>
  Array.from({ length: n }, (_, i) => ({
    deliveryId: `dlv_${from + i}`,
    eventId: `e-${from + i}`,
    eventType: 'refund.completed',
    money,
  }));

test('nothing collected: no summary is due', () => {
  assert.equal(summaryDueAt(emptySummaryState()), null);
  assert.equal(takeSummary(emptySummaryState(), T0), null);
});

test('the first failure of an endpoint is summarised at once, with its count and ids', () => {
  const s = addFailures(emptySummaryState(), failed(1), T0);
  assert.equal(summaryDueAt(s), T0);
  const r = takeSummary(s, T0);
  assert.deepEqual(r?.summary, { count: 1, money: 0, first: failed(1), more: 0, since: T0, until: T0 });
  assert.deepEqual(r?.next, { count: 0, money: 0, first: [], firstAt: null, lastAt: null, lastSentAt: T0 });
});

test('within 15 minutes of a summary nothing more goes out; then one summary carries them all', () => {
  let s = takeSummary(addFailures(emptySummaryState(), failed(1), T0), T0)!.next;
  s = addFailures(s, failed(30, 1, true), T0 + 1 * MIN);
  s = addFailures(s, failed(5, 31), T0 + 9 * MIN);
  assert.equal(summaryDueAt(s), T0 + SUMMARY_WINDOW_MS);
  assert.equal(takeSummary(s, T0 + 15 * MIN - 1), null, 'one millisecond early');
  const r = takeSummary(s, T0 + 15 * MIN);
  assert.ok(r);
  assert.equal(r.summary.count, 35);
  assert.equal(r.summary.money, 30);
  assert.equal(r.summary.first.length, 20, 'the first 20 ids');
  assert.deepEqual(
    r.summary.first.map((f) => f.deliveryId),
    failed(20, 1).map((f) => f.deliveryId),
  );
  assert.equal(r.summary.more, 15, 'the rest counted');
  assert.deepEqual([r.summary.since, r.summary.until], [T0 + MIN, T0 + 9 * MIN]);
  assert.equal(r.next.lastSentAt, T0 + 15 * MIN);
});

test('after a quiet spell longer than the window, the next failure is told at once', () => {
  const s = addFailures(
    takeSummary(addFailures(emptySummaryState(), failed(1), T0), T0)!.next,
    failed(1, 1),
    T0 + 2 * 60 * MIN,
  );
  assert.equal(summaryDueAt(s), T0 + 2 * 60 * MIN);
});

test('the id list is bounded by maxIds however many fail at once', () => {
  const s = addFailures(emptySummaryState(), failed(1000), T0, 3);
  assert.equal(s.count, 1000);
  assert.equal(s.first.length, 3);
  assert.equal(takeSummary(s, T0, SUMMARY_WINDOW_MS)?.summary.more, 997);
});
