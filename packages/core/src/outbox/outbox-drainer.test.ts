import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outboxRetryDelay } from './outbox-drainer.ts';

test('a failed notification is retried after 10 s, doubled each time, at most hourly', () => {
  assert.deepEqual([1, 2, 3, 4].map(outboxRetryDelay), [10_000, 20_000, 40_000, 80_000]);
  assert.equal(outboxRetryDelay(9), 2560_000);
  assert.equal(outboxRetryDelay(10), 60 * 60_000);
  assert.equal(outboxRetryDelay(40), 60 * 60_000);
});
