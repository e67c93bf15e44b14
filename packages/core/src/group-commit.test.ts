import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GroupCommit } from './group-commit.ts';

const tick = () => new Promise((r) => setImmediate(r));

test('callers of one turn share a commit; an Error in a slot rejects only its caller', async () => {
  const batches: number[][] = [];
  const g = new GroupCommit<number, number>(async (items) => {
    batches.push(items);
    return items.map((i) => (i === 3 ? new Error('three') : i * 10));
  });
  const out = await Promise.allSettled([1, 2, 3, 4].map((i) => g.submit(i)));
  assert.deepEqual(batches, [[1, 2, 3, 4]]);
  assert.deepEqual(
    out.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message)),
    [10, 20, 'three', 40],
  );
});

test('a failing commit rejects its whole batch; later batches still commit', async () => {
  let n = 0;
  const g = new GroupCommit<number, number>(async (items) => {
    if (n++ === 0) throw new Error('disk gone');
    return items;
  });
  await assert.rejects(Promise.all([g.submit(1), g.submit(2)]), /disk gone/);
  assert.equal(await g.submit(3), 3);
});

test('at most `concurrency` batches commit at once; what queued meanwhile goes next', async () => {
  let running = 0;
  let peak = 0;
  const releases: Array<() => void> = [];
  const batches: number[][] = [];
  const g = new GroupCommit<number, number>(
    async (items) => {
      running++;
      peak = Math.max(peak, running);
      batches.push(items);
      await new Promise<void>((r) => releases.push(r));
      running--;
      return items;
    },
    2, // maxBatch
    0,
    64,
    2, // concurrency
  );
  const all = Promise.all([1, 2, 3, 4, 5, 6].map((i) => g.submit(i)));
  for (let i = 0; i < 10; i++) await tick();
  assert.deepEqual(
    batches,
    [
      [1, 2],
      [3, 4],
    ],
    'two batches in flight, the third waits for a slot',
  );
  releases.shift()!();
  for (let i = 0; i < 10; i++) await tick();
  assert.deepEqual(batches, [
    [1, 2],
    [3, 4],
    [5, 6],
  ]);
  while (releases.length > 0) {
    releases.shift()!();
    await tick();
  }
  assert.deepEqual(await all, [1, 2, 3, 4, 5, 6]);
  assert.ok(peak <= 2, `peak ${peak}`);
});
