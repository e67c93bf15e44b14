import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepFreeze } from './deep-freeze.ts';

test('deepFreeze freezes every nested object and array, and returns its argument', () => {
  const value = { a: { b: [1, { c: 2 }] }, d: 'x' };
  assert.equal(deepFreeze(value), value);
  assert.ok(
    Object.isFrozen(value) && Object.isFrozen(value.a) && Object.isFrozen(value.a.b) && Object.isFrozen(value.a.b[1]),
  );
  assert.throws(() => {
    (value.a.b[1] as { c: number }).c = 3;
  }, TypeError);
});

test('deepFreeze ends on a cycle and leaves primitives and null alone', () => {
  const a: { self?: unknown; n: null } = { n: null };
  a.self = a;
  assert.equal(deepFreeze(a), a);
  assert.ok(Object.isFrozen(a));
  assert.equal(deepFreeze(5), 5);
  assert.equal(deepFreeze(null), null);
});
