import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WakeSignal } from './wake-signal.ts';

test('a wake() while the loop is busy ends the next sleep at once, and only that one', async () => {
  const w = new WakeSignal();
  w.wake();
  let done = false;
  await w.sleep(60_000).then(() => (done = true));
  assert.equal(done, true);
  let second = false;
  const p = w.sleep(60_000).then(() => (second = true));
  await new Promise((r) => setImmediate(r));
  assert.equal(second, false, 'the wake was spent by the first sleep');
  w.wake();
  await p;
  assert.equal(second, true, 'a wake during a sleep ends it');
});

test('a stopped loop does not sleep; an unwoken sleep ends after its time', async () => {
  const w = new WakeSignal();
  await w.sleep(60_000, true);
  const started = Date.now();
  await w.sleep(5);
  assert.ok(Date.now() - started >= 4);
});
