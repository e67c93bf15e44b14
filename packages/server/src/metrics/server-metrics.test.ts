import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Store } from '@hookline/core';
import { ServerMetrics } from './server-metrics.ts';

/** A store whose two gauge reads count their calls and can be made to fail. */
function gaugeStore() {
  const s = { reads: 0, fail: false };
  const store = {
    reporting: {
      countQueued: async () => {
        s.reads++;
        if (s.fail) throw new Error('disk gone');
        return { pending: 3, delivering: 0, held: 0 };
      },
      countBreakers: async () => ({ open: 0, probing: 0 }),
    },
  } as unknown as Store;
  return { s, store };
}

test('scrapes within a second share one rendering; a later scrape renders the counters anew', async () => {
  let now = 0;
  const { store } = gaugeStore();
  const m = new ServerMetrics(store, { refreshMs: 5000, now: () => now });
  const [a, b] = await Promise.all([m.render(), m.render()]);
  assert.equal(a, b);
  m.held.inc();
  now = 999;
  assert.equal(await m.render(), a, 'still within the second: the same text');
  now = 1000;
  const c = await m.render();
  assert.match(c, /^hookline_deliveries_held_total 1$/m);
  assert.match(a, /^hookline_deliveries_held_total 0$/m);
});

test('the reuse is never longer than the store refresh, and a failed rendering is not reused', async () => {
  let now = 0;
  const { s, store } = gaugeStore();
  s.fail = true;
  const m = new ServerMetrics(store, { refreshMs: 100, now: () => now });
  await assert.rejects(m.render(), /disk gone/);
  s.fail = false;
  now = 100;
  assert.match(await m.render(), /^hookline_queue_depth\{status="pending"\} 3$/m, 'rendered again after the failure');
  m.held.inc();
  now = 200;
  assert.match(await m.render(), /^hookline_deliveries_held_total 1$/m, 'refresh 100 ms: reused for 100 ms only');
});
