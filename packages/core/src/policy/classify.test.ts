import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyStatus, parseRetryAfter, retryAfterApplies } from './classify.ts';

test('2xx is success', () => {
  for (const s of [200, 201, 202, 204, 299]) assert.equal(classifyStatus(s), 'success', String(s));
});

test('5xx and 429 are delivery failures', () => {
  for (const s of [429, 500, 502, 503, 504, 599]) assert.equal(classifyStatus(s), 'delivery_failure', String(s));
});

test('3xx (never followed) is a client error', () => {
  for (const s of [300, 301, 302, 304, 307, 308, 399]) assert.equal(classifyStatus(s), 'client_error', String(s));
});

test('other 4xx are client errors', () => {
  for (const s of [400, 401, 403, 404, 409, 410, 413, 422, 428, 430, 451, 499])
    assert.equal(classifyStatus(s), 'client_error', String(s));
});

test('1xx and codes outside 100–599 are delivery failures', () => {
  for (const s of [0, 100, 101, 199, 600, 999, -1, 200.5, Number.NaN])
    assert.equal(classifyStatus(s), 'delivery_failure', String(s));
});

test('Retry-After applies to 429 and 503 only', () => {
  assert.equal(retryAfterApplies(429), true);
  assert.equal(retryAfterApplies(503), true);
  for (const s of [500, 502, 404, undefined]) assert.equal(retryAfterApplies(s), false);
});

test('parseRetryAfter reads delta seconds', () => {
  assert.equal(parseRetryAfter('120', 0), 120_000);
  assert.equal(parseRetryAfter(' 0 ', 0), 0);
  assert.equal(parseRetryAfter('3600', 5), 3_600_000);
});

test('parseRetryAfter reads HTTP dates in all three RFC 9110 forms', () => {
  const now = Date.UTC(1994, 10, 6, 8, 48, 37);
  assert.equal(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', now), 60_000);
  assert.equal(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', now), 60_000);
  assert.equal(parseRetryAfter('Sun Nov  6 08:49:37 1994', now), 60_000);
});

test('parseRetryAfter: a date already past means now', () => {
  assert.equal(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', Date.UTC(2020, 0, 1)), 0);
});

test('parseRetryAfter: absent, negative, fractional or garbage values are ignored', () => {
  for (const v of [
    undefined,
    '',
    '-5',
    '1.5',
    'soon',
    '5s',
    '2024-01-01',
    'Sun, 06 Nov 1994 08:49:37',
    'Sun, 32 Foo 1994 08:49:37 GMT',
    '9'.repeat(30),
  ]) {
    assert.equal(parseRetryAfter(v, 0), undefined, String(v));
  }
});
