import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULTS } from './defaults.ts';
import { DEFAULT_RETENTION } from './maintenance/retention.ts';
import { PAYMENTS } from './policy/presets.ts';
import { PolicyRegistry } from './policy/registry.ts';

test('the defaults are one frozen object', () => {
  assert.ok(
    Object.isFrozen(DEFAULTS) &&
      Object.isFrozen(DEFAULTS.dispatcher) &&
      Object.isFrozen(DEFAULTS.replay) &&
      Object.isFrozen(DEFAULTS.retention),
  );
  assert.throws(() => {
    (DEFAULTS.dispatcher as { leaseMs: number }).leaseMs = 1;
  }, TypeError);
});

test("the default breaker is the payments preset's, not a copy of it", () => {
  assert.equal(DEFAULTS.breaker, PAYMENTS.breaker);
  // A user policy that only says "breaker": true (its parent, standard, has none) gets exactly that one.
  assert.equal(PolicyRegistry.fromConfig([{ name: 'mine', breaker: true }]).get('mine')?.breaker, PAYMENTS.breaker);
});

test('retention reads its defaults from here', () => {
  assert.equal(DEFAULT_RETENTION, DEFAULTS.retention);
  assert.equal(DEFAULTS.retention.deliveriesMs, 30 * 86_400_000);
});
