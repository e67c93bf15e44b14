import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  ADAPTIVE,
  type ConcurrencyState,
  effectiveConcurrency,
  initialConcurrency,
  isPushback,
  nextConcurrency,
} from './adaptive-concurrency.ts';

const ok = (seq: number, durationMs = 10, windowFull = true) => ({
  seq,
  status: 200,
  success: true,
  durationMs,
  windowFull,
});
const busy = (seq: number, status = 503) => ({ seq, status, success: false, durationMs: 2, windowFull: true });

test('starts at the cap, or at what a previous worker learned', () => {
  assert.equal(effectiveConcurrency(initialConcurrency(20), 20), 20);
  assert.equal(effectiveConcurrency(initialConcurrency(20, 4), 20), 4);
  assert.equal(effectiveConcurrency(initialConcurrency(3, 9), 3), 3);
});

test('429 and 503 cut the window once per round: pushback from sends already out does not cut again', () => {
  let s = initialConcurrency(20);
  s = nextConcurrency(s, busy(0), 20, 20);
  assert.equal(effectiveConcurrency(s, 20), 14);
  for (let seq = 1; seq < 20; seq++) s = nextConcurrency(s, busy(seq, seq % 2 ? 429 : 503), 20, 20);
  assert.equal(effectiveConcurrency(s, 20), 14, 'sends 1-19 were out before the cut');
  s = nextConcurrency(s, busy(20), 20, 34);
  assert.equal(effectiveConcurrency(s, 20), 9);
});

test('other failures leave the window alone', () => {
  const s = nextConcurrency(
    initialConcurrency(10),
    { seq: 0, status: 500, success: false, durationMs: 5, windowFull: true },
    10,
    1,
  );
  assert.equal(s.limit, 10);
  const n = nextConcurrency(
    initialConcurrency(10),
    { seq: 0, status: null, success: false, durationMs: 5, windowFull: true },
    10,
    1,
  );
  assert.equal(n.limit, 10);
});

test('fast successes grow the window by about one per window of them, never past the cap', () => {
  let s: ConcurrencyState = { ...initialConcurrency(10), limit: 2 };
  let seq = 0;
  for (let i = 0; i < 2; i++) s = nextConcurrency(s, ok(seq++), 10, seq);
  assert.equal(effectiveConcurrency(s, 10), 2, '2 → 2.5 + 0.4');
  s = nextConcurrency(s, ok(seq++), 10, seq);
  assert.equal(effectiveConcurrency(s, 10), 3);
  for (let i = 0; i < 500; i++) s = nextConcurrency(s, ok(seq++), 10, seq);
  assert.equal(s.limit, 10);
});

test('near the last cut growth is slow; well past it, normal again', () => {
  let s: ConcurrencyState = { ...initialConcurrency(20), limit: 8 };
  s = nextConcurrency(s, busy(0), 20, 1); // cut at 8 → 5.6, ceiling 8
  assert.equal(s.ceiling, 8);
  let seq = 1;
  let n = 0;
  while (effectiveConcurrency(s, 20) < 6) (s = nextConcurrency(s, ok(seq++), 20, seq)), n++;
  assert.ok(n <= 3, `5 → 6 in ${n}`);
  n = 0;
  while (effectiveConcurrency(s, 20) < 7) (s = nextConcurrency(s, ok(seq++), 20, seq)), n++;
  assert.ok(n >= 6 * ADAPTIVE.slowNearCeiling - 1, `6 → 7 in ${n}`);
  for (let i = 0; i < 400; i++) s = nextConcurrency(s, ok(seq++), 20, seq);
  assert.equal(s.ceiling, null);
});

test('latency well above the moving baseline is pushback; the baseline itself moves slowly', () => {
  let s = initialConcurrency(10);
  let seq = 0;
  for (let i = 0; i < 20; i++) s = nextConcurrency(s, ok(seq++, 20), 10, seq);
  assert.equal(s.baselineMs, 20);
  assert.equal(isPushback(s, ok(99, 59)), false);
  assert.equal(isPushback(s, ok(99, 61)), true);
  const slow = nextConcurrency(s, ok(seq, 200), 10, seq + 1);
  assert.equal(effectiveConcurrency(slow, 10), 7);
  assert.ok(slow.baselineMs! > 20 && slow.baselineMs! < 30);
  assert.equal(isPushback(initialConcurrency(10), ok(0, 10_000)), false, 'no baseline yet: nothing to compare with');
});

test('a fast answer while the window was not full does not grow it', () => {
  let s: ConcurrencyState = { ...initialConcurrency(10), limit: 3 };
  for (let i = 0; i < 50; i++) s = nextConcurrency(s, ok(i, 10, false), 10, i + 1);
  assert.equal(s.limit, 3);
  assert.equal(s.samples, 50, 'the baseline still learns');
});

test('a lowered cap clamps the window', () => {
  const s = nextConcurrency(initialConcurrency(20), ok(0), 5, 1);
  assert.equal(effectiveConcurrency(s, 5), 5);
  assert.ok(s.limit <= 5);
});

test('property: the effective concurrency stays within 1 … max, and pushback never raises it', () => {
  const signal = fc.record({
    status: fc.constantFrom(200, 201, 429, 500, 503, null),
    durationMs: fc.integer({ min: 0, max: 5000 }),
    windowFull: fc.boolean(),
  });
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 1000 }), fc.array(signal, { maxLength: 300 }), (max, sigs) => {
      let s = initialConcurrency(max);
      let seq = 0;
      for (const g of sigs) {
        const before = effectiveConcurrency(s, max);
        const sig = {
          seq: seq++,
          status: g.status,
          success: g.status !== null && g.status < 300,
          durationMs: g.durationMs,
          windowFull: g.windowFull,
        };
        const push = isPushback(s, sig);
        s = nextConcurrency(s, sig, max, seq);
        const after = effectiveConcurrency(s, max);
        assert.ok(after >= 1 && after <= max);
        if (push) assert.ok(after <= before);
        else assert.ok(after >= before);
      }
    }),
  );
});

test('against an endpoint that pushes back above 5 in flight, the window settles at 4-6 with few pushbacks', () => {
  // A round model: each round sends `w` at once; those beyond 5 get 503.
  let s = initialConcurrency(20);
  let seq = 0;
  let sent = 0;
  let failed = 0;
  const windows: number[] = [];
  for (let round = 0; round < 400; round++) {
    const w = effectiveConcurrency(s, 20);
    const start = seq;
    seq += w;
    for (let i = 0; i < w; i++) {
      const sig = i >= 5 ? busy(start + i) : ok(start + i);
      s = nextConcurrency(s, sig, 20, seq);
      if (round >= 20) sent++, i >= 5 && failed++;
    }
    if (round >= 20) windows.push(w);
  }
  assert.ok(Math.max(...windows) <= 6, `max window ${Math.max(...windows)}`);
  assert.ok(Math.min(...windows) >= 3, `min window ${Math.min(...windows)}`);
  assert.ok(failed / sent < 0.05, `${failed} of ${sent} pushed back`);
});
