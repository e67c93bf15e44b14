import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admitTenantEvents, DAY_MS, quotaNotice, utcDay } from './tenant-admission.ts';

const NOON = Date.UTC(2026, 0, 5, 12);
const item = (key: string, bytes = 10, existing = false) => ({ key, bytes, existing });
const none = { eventsPerS: null, eventsPerDay: null, maxPayloadBytes: null };

test('a bucket holds one second of events; each refused one waits for the next token', () => {
  const a = admitTenantEvents(
    [item('a'), item('b'), item('c'), item('d')],
    { ...none, eventsPerS: 3 },
    { bucket: null, eventsToday: 0 },
    NOON,
  );
  assert.deepEqual(
    a.verdicts.map((v) => v?.limit ?? 'ok'),
    ['ok', 'ok', 'ok', 'rate'],
  );
  assert.equal(a.verdicts[3]?.retryAfterMs, 334);
  assert.equal(a.admitted, 3);
  assert.ok(a.bucket && a.bucket.tokens < 1);
});

test('an event accepted before, or admitted earlier in the same accept, is never charged nor refused', () => {
  const a = admitTenantEvents(
    [item('old', 10, true), item('x'), item('x'), item('y')],
    { ...none, eventsPerDay: 1 },
    { bucket: null, eventsToday: 0 },
    NOON,
  );
  assert.deepEqual(
    a.verdicts.map((v) => v?.limit ?? 'ok'),
    ['ok', 'ok', 'ok', 'daily'],
  );
  assert.equal(a.verdicts[3]?.retryAfterMs, DAY_MS / 2);
  assert.equal(a.admitted, 1);
});

test('a refused id is new again when it comes back in the same accept; the payload cap refuses for good', () => {
  const a = admitTenantEvents(
    [item('big', 101), item('big', 50)],
    { ...none, maxPayloadBytes: 100 },
    { bucket: null, eventsToday: 0 },
    NOON,
  );
  assert.deepEqual(a.verdicts, [{ limit: 'payload', max: 100, retryAfterMs: 0 }, null]);
  assert.equal(a.admitted, 1);
  assert.equal(a.bucket, null);
});

test('quota notices: 80 % then 100 %, each once, the highest crossed only', () => {
  assert.equal(quotaNotice(79, 100, 0), null);
  assert.equal(quotaNotice(80, 100, 0), 80);
  assert.equal(quotaNotice(90, 100, 80), null);
  assert.equal(quotaNotice(100, 100, 80), 100);
  assert.equal(quotaNotice(100, 100, 0), 100);
  assert.equal(quotaNotice(100, 100, 100), null);
  assert.equal(quotaNotice(100, null, 0), null);
  assert.equal(utcDay(NOON), NOON - DAY_MS / 2);
});
