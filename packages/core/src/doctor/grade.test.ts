// Unit tests of the doctor's pure grading: (case, responses) → pass / warn / fail.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type DoctorObservation, gradeCase } from './grade.ts';

const ctx = { timeoutMs: 10_000 };
const answer = (status: number, durationMs = 5): DoctorObservation => ({ status, durationMs, error: null });
const none = (error = 'timeout: no full response within 10000 ms'): DoctorObservation => ({
  status: null,
  durationMs: 10_000,
  error,
});

test('valid event: 2xx passes, above 1 s warns, above 10 s fails, non-2xx and no answer fail', () => {
  assert.equal(gradeCase('valid_event', [answer(202, 40)], ctx).grade, 'pass');
  assert.match(gradeCase('valid_event', [answer(200, 40)], ctx).explanation, /40 ms/);
  assert.equal(gradeCase('valid_event', [answer(200, 1000)], ctx).grade, 'pass');
  assert.equal(gradeCase('valid_event', [answer(200, 1001)], ctx).grade, 'warn');
  assert.equal(gradeCase('valid_event', [answer(200, 10_000)], ctx).grade, 'warn');
  assert.equal(gradeCase('valid_event', [answer(200, 10_001)], ctx).grade, 'fail');
  assert.equal(gradeCase('valid_event', [answer(500)], ctx).grade, 'fail');
  assert.equal(gradeCase('valid_event', [answer(301)], ctx).grade, 'fail');
  const timedOut = gradeCase('valid_event', [none()], ctx);
  assert.equal(timedOut.grade, 'fail');
  assert.match(timedOut.explanation, /no full response/);
});

test('duplicates: every copy must be 2xx; the explanation names the copy that was not', () => {
  assert.equal(gradeCase('duplicates', [answer(202), answer(200), answer(200)], ctx).grade, 'pass');
  const v = gradeCase('duplicates', [answer(202), answer(409), answer(200)], ctx);
  assert.equal(v.grade, 'fail');
  assert.match(v.explanation, /copy 2 of 3: HTTP 409/);
  assert.match(gradeCase('duplicates', [answer(202), answer(202), none()], ctx).explanation, /copy 3 of 3/);
});

test('bad signature and tampered body: 401/403 pass, another 4xx warns, 2xx and 5xx fail', () => {
  for (const id of ['bad_signature', 'tampered_body'] as const) {
    assert.equal(gradeCase(id, [answer(401)], ctx).grade, 'pass');
    assert.equal(gradeCase(id, [answer(403)], ctx).grade, 'pass');
    assert.equal(gradeCase(id, [answer(400)], ctx).grade, 'warn');
    assert.equal(gradeCase(id, [answer(200)], ctx).grade, 'fail');
    assert.equal(gradeCase(id, [answer(500)], ctx).grade, 'fail');
    assert.equal(gradeCase(id, [none('reset: socket hang up')], ctx).grade, 'fail');
  }
  assert.match(gradeCase('bad_signature', [answer(200)], ctx).explanation, /forge/);
});

test('stale and future timestamps: any refusal in 400/401/403 passes, acceptance fails', () => {
  for (const id of ['stale_timestamp', 'future_timestamp'] as const) {
    assert.equal(gradeCase(id, [answer(401)], ctx).grade, 'pass');
    assert.equal(gradeCase(id, [answer(400)], ctx).grade, 'pass');
    assert.equal(gradeCase(id, [answer(422)], ctx).grade, 'warn');
    assert.equal(gradeCase(id, [answer(204)], ctx).grade, 'fail');
    assert.equal(gradeCase(id, [answer(503)], ctx).grade, 'fail');
  }
});

test('corrupted JSON and a missing required field: 400 passes, 5xx fails (retried for days), 2xx warns', () => {
  for (const id of ['corrupted_json', 'missing_required_field'] as const) {
    assert.equal(gradeCase(id, [answer(400)], ctx).grade, 'pass');
    assert.equal(gradeCase(id, [answer(422)], ctx).grade, 'pass');
    assert.equal(gradeCase(id, [answer(401)], ctx).grade, 'warn');
    assert.equal(gradeCase(id, [answer(200)], ctx).grade, 'warn');
    const crashed = gradeCase(id, [answer(500)], ctx);
    assert.equal(crashed.grade, 'fail');
    assert.match(crashed.explanation, /retry .* for days/);
    assert.equal(gradeCase(id, [none()], ctx).grade, 'fail');
  }
});

test('unknown type, extra field, previous secret, out of order: 2xx for every request, anything else fails', () => {
  for (const id of ['unknown_event_type', 'extra_optional_field', 'previous_secret'] as const) {
    assert.equal(gradeCase(id, [answer(202)], ctx).grade, 'pass');
    assert.equal(gradeCase(id, [answer(400)], ctx).grade, 'fail');
    assert.equal(gradeCase(id, [answer(500)], ctx).grade, 'fail');
  }
  assert.equal(gradeCase('out_of_order', [answer(200), answer(200)], ctx).grade, 'pass');
  const stale = gradeCase('out_of_order', [answer(200), answer(409)], ctx);
  assert.equal(stale.grade, 'fail');
  assert.match(stale.explanation, /older version/);
});

test('a case without observations is a programming error', () => {
  assert.throws(() => gradeCase('valid_event', [], ctx), /at least one observation/);
});
