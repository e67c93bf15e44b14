import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDuration, InvalidDurationError, parseDuration } from './duration.ts';

test('parseDuration reads every unit', () => {
  assert.equal(parseDuration('500ms'), 500);
  assert.equal(parseDuration('30s'), 30_000);
  assert.equal(parseDuration('15m'), 900_000);
  assert.equal(parseDuration('1h'), 3_600_000);
  assert.equal(parseDuration('5d'), 5 * 86_400_000);
  assert.equal(parseDuration('0s'), 0);
});

test('parseDuration reads compound and fractional durations', () => {
  assert.equal(parseDuration('2h30m'), 9_000_000);
  assert.equal(parseDuration('1h 15m'), 4_500_000);
  assert.equal(parseDuration(' 1m 30s 250ms '), 90_250);
  assert.equal(parseDuration('1.5h'), 5_400_000);
  assert.equal(parseDuration('1d12h'), 129_600_000);
});

test('parseDuration takes numbers as milliseconds', () => {
  assert.equal(parseDuration(1500), 1500);
  assert.equal(parseDuration(0), 0);
  assert.equal(parseDuration(1.6), 2);
});

test('parseDuration rejects bad input with a clear message', () => {
  const cases: [unknown, RegExp][] = [
    ['', /empty/],
    ['   ', /empty/],
    ['500', /no unit.*'500ms'/],
    ['10x', /not valid at '10x'/],
    ['1h30', /not valid at '30'/],
    ['-5s', /not valid/],
    ['30m1h', /largest first/],
    ['1h1h', /largest first/],
    ['abc', /not valid/],
    [-1, /non-negative/],
    [Number.NaN, /non-negative/],
    [Number.POSITIVE_INFINITY, /non-negative/],
    [null, /got null/],
    [{}, /got object/],
    [[], /got an array/],
    ['99999999999999999d', /too large/],
  ];
  for (const [input, message] of cases) {
    assert.throws(
      () => parseDuration(input as string),
      (err: unknown) => {
        assert.ok(err instanceof InvalidDurationError, `${String(input)} throws InvalidDurationError`);
        assert.match(err.message, message);
        return true;
      },
    );
  }
});

test('formatDuration writes compact human strings', () => {
  assert.equal(formatDuration(0), '0s');
  assert.equal(formatDuration(500), '500ms');
  assert.equal(formatDuration(1_000), '1s');
  assert.equal(formatDuration(90_000), '1m 30s');
  assert.equal(formatDuration(4_500_000), '1h 15m');
  assert.equal(formatDuration(511_000), '8m 31s');
  assert.equal(formatDuration(48 * 3_600_000), '48h');
  assert.equal(formatDuration(99_305_000), '27h 35m 5s');
  assert.equal(formatDuration(5 * 86_400_000), '5d');
  assert.equal(formatDuration(30 * 86_400_000), '30d');
  assert.equal(formatDuration(3 * 86_400_000 + 3_600_000), '3d 1h');
  assert.equal(formatDuration(-30_000), '-30s');
});

test('formatDuration output parses back to the same value', () => {
  for (const ms of [1, 999, 61_001, 4_500_000, 99_305_000, 5 * 86_400_000 + 1]) {
    assert.equal(parseDuration(formatDuration(ms)), ms);
  }
});
