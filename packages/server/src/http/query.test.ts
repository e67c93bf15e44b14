import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTime } from './query.ts';

const accepts = (v: string) => {
  try {
    parseTime(v, 'body', '/occurred_at');
    return true;
  } catch {
    return false;
  }
};

test('parseTime refuses days that do not exist, leap years by the Gregorian rule', () => {
  for (const ok of ['2024-02-29T00:00:00Z', '2000-02-29', '2026-12-31T23:59:59.999Z', '0000-02-29', '2026-04-30'])
    assert.ok(accepts(ok), ok);
  for (const bad of [
    '2026-02-29',
    '1900-02-29',
    '2026-02-31T12:00:00Z',
    '2026-04-31',
    '2026-00-10',
    '2026-13-01',
    '2026-01-00',
  ])
    assert.ok(!accepts(bad), bad);
});

test('parseTime gives the milliseconds, undefined when absent, and a 400 naming the field otherwise', () => {
  assert.equal(parseTime('2026-01-05T12:00:00.000Z', 'body', '/occurred_at'), Date.UTC(2026, 0, 5, 12));
  assert.equal(parseTime(undefined, 'body', '/occurred_at'), undefined);
  assert.throws(
    () => parseTime('June', 'body', '/events/3/occurred_at'),
    (e: { code?: string; details?: unknown }) =>
      e.code === 'invalid_request' && JSON.stringify(e.details).includes('/events/3/occurred_at'),
  );
});
