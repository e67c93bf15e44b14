import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../clock.ts';
import { HeldDeliveries } from './held-deliveries.ts';

test('holds submitted together commit together, one statement per release time', async () => {
  const calls: Array<[string[], string, number, number]> = [];
  const store = {
    holdDeliveries: async (ids: string[], workerId: string, until: number, now: number) =>
      void calls.push([ids, workerId, until, now]),
  };
  const clock = new VirtualClock(1_000);
  const held = new HeldDeliveries({ store: { queue: store }, clock }, 'wrk_1');
  const out = await Promise.all([
    held.submit({ id: 'dlv_a', until: 5_000 }),
    held.submit({ id: 'dlv_b', until: 9_000 }),
    held.submit({ id: 'dlv_c', until: 5_000 }),
  ]);
  assert.deepEqual(out, [undefined, undefined, undefined]);
  assert.deepEqual(calls, [
    [['dlv_a', 'dlv_c'], 'wrk_1', 5_000, 1_000],
    [['dlv_b'], 'wrk_1', 9_000, 1_000],
  ]);
});
