// Rate limit under a steady arrival stream (docs/rules.md#rate-limit): events are accepted one per step of the
// injected clock at twice the endpoint's limit, and the loopback receiver's arrivals are counted per span of virtual
// time. The backlog tests (dispatch.rate-limit*.test.ts) spread a queue that is there from the start, so their pace
// survives a bucket that is always full; here each delivery is due the moment it is accepted, so only the bucket
// holds the pace.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';

const RATE = 20;
/** The bucket's size, a tenth of a second's worth (docs/rules.md#rate-limit), written out: not read from the code. */
const BURST = 2;
/** The clock's step; while busy, one event is accepted per step: 40/s, twice the limit. */
const STEP = 25;
/** Each cycle is busy for its first second, then quiet long enough for the backlog to drain and the bucket to fill. */
const PERIOD = 2_500;
const BUSY = 1_000;
const CYCLES = 3;
const STREAM_MS = CYCLES * PERIOD;

test(`a stream of events at ${2 * RATE}/s to an endpoint limited to ${RATE}/s: every window of virtual time holds at most the bucket's size plus the rate's share`, async () => {
  const t = await testEngine();
  const rx = await startReceiver(() => 200, { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, max_concurrency: 20, rate_limit_per_s: RATE });
    const start = t.clock.now();
    let accepted = 0;
    for (let at = start; at < start + STREAM_MS; at += STEP) {
      t.clock.set(at);
      if ((at - start) % PERIOD < BUSY)
        await t.engine.events.accept(t.tenantId, { type: 'order.paid', data: { i: accepted++ } });
      await t.engine.runDue();
    }
    const sent = rx.received.map((r) => r.at - start);
    assert.equal(sent.length, accepted, 'each event delivered once, within the stream');
    // Over any span of w ms the bucket grants at most BURST + RATE·w/1000 (pacing/rate-bucket.ts): every span from
    // one arrival to a later one, in virtual time. Each quiet spell lets the bucket fill again, so its size is
    // tested once per cycle, not only at the start.
    const over: string[] = [];
    for (let i = 0; i < sent.length; i++)
      for (let j = i; j < sent.length; j++) {
        const allowed = BURST + (RATE * (sent[j] - sent[i])) / 1000;
        if (j - i + 1 > allowed + 1e-9) over.push(`${j - i + 1} in [${sent[i]}, ${sent[j]}] ms, at most ${allowed}`);
      }
    assert.deepEqual(over.slice(0, 5), [], `${over.length} spans over the limit`);
    // The limit is a pace, not a stall: each cycle's busy second (demand at twice the rate) gets the rate's worth.
    for (let c = 0; c < CYCLES; c++) {
      const n = sent.filter((x) => x >= c * PERIOD && x < c * PERIOD + 1000).length;
      assert.ok(n >= RATE, `cycle ${c}: ${n} sent in its first second, at least ${RATE}`);
    }
  } finally {
    await rx.close();
    await t.close();
  }
});
