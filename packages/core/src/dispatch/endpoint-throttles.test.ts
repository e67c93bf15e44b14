import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../clock.ts';
import type { SendResult } from '../http/sender.ts';
import type { Logger } from '../logger.ts';
import type { ClaimedDelivery } from '../store/store.ts';
import { EndpointThrottles } from './endpoint-throttles.ts';
import type { ConcurrencyChange } from './observers.ts';

/** Only what the throttles read of a claim: its endpoint, cap and learned value. */
const claim = (maxConcurrency: number, learned: number | null = null, id = 'ep_1') =>
  ({ endpoint: { id, tenantId: 'ten_1', maxConcurrency, effectiveConcurrency: learned } }) as ClaimedDelivery;

const answer = (status: number): SendResult => ({
  outcome: status < 300 ? 'success' : 'delivery_failure',
  status,
  responseHeaders: {},
  bodyExcerpt: null,
  errorClass: status < 300 ? null : 'status',
  errorMessage: null,
  startedAt: 0,
  durationMs: 5,
});

/** A store part whose writes wait until the test lets them land (`land`); once `failing`, they fail at once. */
function setup(adaptive = true) {
  const writes: Array<[string, number | null]> = [];
  const pending: Array<() => void> = [];
  let failing = false;
  const store = {
    setEffectiveConcurrency: (id: string, v: number | null) => {
      writes.push([id, v]);
      if (failing) return Promise.reject(new Error('disk full'));
      return new Promise<void>((resolve) => pending.push(resolve));
    },
  };
  const heard: ConcurrencyChange[] = [];
  const logs: Array<[string, string, Record<string, unknown> | undefined]> = [];
  const logger: Logger = { log: (level, msg, fields) => void logs.push([level, msg, fields]) };
  const clock = new VirtualClock(1_000);
  const observers = [{ concurrency: (e: ConcurrencyChange) => void heard.push(e) }];
  const throttles = new EndpointThrottles({ store: { queue: store }, clock, logger, observers, adaptive });
  const land = () => {
    for (const p of pending.splice(0)) p();
  };
  return { throttles, writes, heard, logs, clock, land, fail: () => void (failing = true) };
}

test('slots start at the cap, or at what a previous worker learned (within 1 … cap)', () => {
  const { throttles } = setup();
  assert.equal(throttles.capOf(claim(20)), 20);
  assert.equal(throttles.capOf(claim(20, 4, 'ep_2')), 4);
  assert.equal(throttles.capOf(claim(3, 9, 'ep_3')), 3);
});

test('a 503 cuts the window: the lane is resized, observers hear it and the learned value is saved', async () => {
  const s = setup();
  const c = claim(20);
  const lane = { cap: s.throttles.capOf(c) };
  const seq = s.throttles.nextSeq(c);
  s.clock.advance(500);
  assert.equal(s.throttles.adapt(lane, c, seq, true, answer(503), 5), false, 'a cut starts nothing more');
  assert.equal(lane.cap, 14);
  assert.equal(s.throttles.capOf(c), 14);
  assert.deepEqual(s.heard, [{ endpointId: 'ep_1', tenantId: 'ten_1', effective: 14, max: 20, at: 1_500 }]);
  assert.deepEqual(s.writes, [['ep_1', 14]]);
  s.land();
  await s.throttles.saved();
});

test('pushback from sends already out when the window was cut does not cut it again', () => {
  const s = setup();
  const c = claim(20);
  const lane = { cap: 20 };
  const seqs = [0, 1, 2].map(() => s.throttles.nextSeq(c));
  assert.deepEqual(seqs, [0, 1, 2]);
  s.throttles.adapt(lane, c, seqs[0], true, answer(503), 5);
  s.throttles.adapt(lane, c, seqs[1], true, answer(429), 5);
  s.throttles.adapt(lane, c, seqs[2], true, answer(503), 5);
  assert.equal(lane.cap, 14);
  s.throttles.adapt(lane, c, s.throttles.nextSeq(c), true, answer(503), 5);
  assert.equal(lane.cap, 9, 'a send started after the cut cuts again');
  assert.equal(s.heard.length, 2);
});

test('other failures and unchanged windows are not announced or saved', () => {
  const s = setup();
  const c = claim(5);
  const lane = { cap: 5 };
  assert.equal(s.throttles.adapt(lane, c, s.throttles.nextSeq(c), true, answer(500), 5), false);
  assert.equal(s.throttles.adapt(lane, c, s.throttles.nextSeq(c), true, answer(200), 5), false, 'already at the cap');
  assert.equal(lane.cap, 5);
  assert.deepEqual(s.heard, []);
  assert.deepEqual(s.writes, []);
});

test('growing back to the cap says so (true) and saves null: the endpoint is back at its max_concurrency', () => {
  const s = setup();
  const c = claim(3, 2); // learned 2: its ceiling is 3, where growth is 8 times slower
  const lane = { cap: s.throttles.capOf(c) };
  let fed = 0;
  let grew = false;
  while (!grew && fed < 100) {
    grew = s.throttles.adapt(lane, c, s.throttles.nextSeq(c), true, answer(200), 5);
    fed++;
    if (!grew) assert.equal(lane.cap, 2);
  }
  assert.ok(grew && fed > 8, `grew after ${fed} full-window successes`);
  assert.equal(lane.cap, 3);
  assert.deepEqual(s.writes, [['ep_1', null]]);
});

test('learned values are written one at a time, the latest per endpoint wins; a failed write is logged, the next goes on', async () => {
  const s = setup();
  const a = claim(20);
  const b = claim(10, null, 'ep_2');
  const cut = (c: ClaimedDelivery) => s.throttles.adapt({ cap: 0 }, c, s.throttles.nextSeq(c), true, answer(503), 5);
  cut(a); // 14: written at once
  cut(a); // 9, then 6: only 6 waits
  cut(a);
  cut(b); // 7
  assert.deepEqual(s.writes, [['ep_1', 14]], 'one write at a time');
  s.fail();
  s.land(); // the first lands; the rest fail at once
  await s.throttles.saved();
  assert.deepEqual(s.writes, [
    ['ep_1', 14],
    ['ep_1', 6],
    ['ep_2', 7],
  ]);
  assert.deepEqual(
    s.logs.map(([level, msg, f]) => [level, msg, f?.endpoint_id, f?.error]),
    [
      ['warn', "saving an endpoint's learned concurrency failed", 'ep_1', 'disk full'],
      ['warn', "saving an endpoint's learned concurrency failed", 'ep_2', 'disk full'],
    ],
  );
});

test('a forgotten endpoint starts again from its cap', () => {
  const s = setup();
  const c = claim(20);
  s.throttles.adapt({ cap: 20 }, c, s.throttles.nextSeq(c), true, answer(503), 5);
  assert.equal(s.throttles.capOf(c), 14);
  s.throttles.forget('ep_1');
  assert.equal(s.throttles.capOf(c), 20);
  assert.equal(s.throttles.nextSeq(c), 0);
});

test('adapting off: every endpoint gets its cap and nothing is learned', () => {
  const s = setup(false);
  const c = claim(20, 4);
  const lane = { cap: 20 };
  assert.equal(s.throttles.capOf(c), 20);
  assert.equal(s.throttles.adapt(lane, c, s.throttles.nextSeq(c), true, answer(503), 5), false);
  assert.equal(lane.cap, 20);
  assert.deepEqual(s.heard, []);
  assert.deepEqual(s.writes, []);
});
