import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from './random.ts';

test('seededRandom repeats per seed, differs across seeds, stays in [0, 1)', () => {
  const draw = (seed: number) => Array.from({ length: 1000 }, seededRandom(seed));
  assert.deepEqual(draw(7), draw(7));
  assert.notDeepEqual(draw(7), draw(8));
  const values = draw(42);
  assert.ok(values.every((v) => v >= 0 && v < 1));
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  assert.ok(mean > 0.45 && mean < 0.55, `mean ${mean}`);
});
