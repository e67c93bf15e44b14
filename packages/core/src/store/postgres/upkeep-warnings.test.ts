import assert from 'node:assert/strict';
import { test } from 'node:test';
import { upkeepWarnings } from './upkeep-warnings.ts';

test('autovacuum off is warned of, with where to read why; on (or unknown) is not', () => {
  const [w, ...rest] = upkeepWarnings({ autovacuum: 'off' });
  assert.match(w, /autovacuum = off/);
  assert.match(w, /docs\/scaling\.md#history/);
  assert.deepEqual(rest, []);
  assert.deepEqual(upkeepWarnings({ autovacuum: 'on' }), []);
  assert.deepEqual(upkeepWarnings({}), []);
});
