import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Coalescer } from './coalesce.ts';

test('one run at a time per key; callers during a run share one trailing run', async () => {
  const c = new Coalescer();
  let runs = 0;
  let active = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const fn = async () => {
    runs++;
    active++;
    assert.equal(active, 1);
    if (runs === 1) await gate;
    active--;
  };
  const first = c.run('k', fn);
  await Promise.resolve();
  const joined = [c.run('k', fn), c.run('k', fn), c.run('k', fn)];
  assert.equal(joined[0], joined[1]);
  release();
  await Promise.all([first, ...joined]);
  assert.equal(runs, 2);
  await c.run('other', fn);
  assert.equal(runs, 3);
  assert.equal(c.size, 0);
});
