import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryLogger, VirtualClock } from '@hookline/core';
import { KeyUsage } from './key-usage.ts';

test('a key is recorded once a minute however often it is used; each key on its own', () => {
  const clock = new VirtualClock(0);
  const asked: string[] = [];
  const usage = new KeyUsage(async (id) => void asked.push(id), clock, memoryLogger());
  for (let i = 0; i < 100; i++) usage.used('key_a');
  usage.used('key_b');
  clock.advance(59_999);
  usage.used('key_a');
  assert.deepEqual(asked, ['key_a', 'key_b']);
  clock.advance(1);
  usage.used('key_a');
  assert.deepEqual(asked, ['key_a', 'key_b', 'key_a']);
});

test('a failed write is logged, not thrown, and the next use tries again', async () => {
  const clock = new VirtualClock(0);
  const logger = memoryLogger();
  let calls = 0;
  const usage = new KeyUsage(
    async () => {
      calls++;
      throw new Error('disk full');
    },
    clock,
    logger,
  );
  usage.used('key_a');
  await new Promise((r) => setImmediate(r));
  assert.ok(
    logger.lines.some((l) => /last use failed/.test(JSON.stringify(l))),
    JSON.stringify(logger.lines),
  );
  usage.used('key_a');
  assert.equal(calls, 2, 'not throttled after a failure');
});
