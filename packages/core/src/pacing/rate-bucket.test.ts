import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { deferSlots, type RateBucket, rateBurst, takeTokens } from './rate-bucket.ts';

test('a new bucket grants its burst, then one token per 1000/rate ms', () => {
  const first = takeTokens(null, 50, 1000, 100);
  assert.equal(first.granted, 5);
  assert.equal(first.blockedUntil, 1020);
  const early = takeTokens(first.bucket, 50, 1010, 100);
  assert.equal(early.granted, 0);
  const due = takeTokens(early.bucket, 50, 1020, 100);
  assert.equal(due.granted, 1);
  assert.equal(due.blockedUntil, 1040);
});

test('a bucket left idle refills only to its size', () => {
  const g = takeTokens({ tokens: 0, refilledAt: 0 }, 50, 3_600_000, 100);
  assert.equal(g.granted, rateBurst(50));
});

test('a clock behind the row adds nothing and keeps the row time', () => {
  const g = takeTokens({ tokens: 0.5, refilledAt: 5000 }, 10, 4000, 3);
  assert.equal(g.granted, 0);
  assert.equal(g.bucket.refilledAt, 5000);
  assert.equal(g.blockedUntil, 5050);
});

test('grants never exceed what is wanted', () => {
  const g = takeTokens(null, 1000, 0, 3);
  assert.equal(g.granted, 3);
  assert.equal(g.bucket.tokens, 97);
  assert.equal(g.blockedUntil, 0);
});

test('property: over any span, grants stay within burst + rate × span, and a steady taker gets the rate', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 2000 }),
      fc.array(fc.record({ dt: fc.integer({ min: 0, max: 400 }), want: fc.integer({ min: 0, max: 300 }) }), {
        minLength: 1,
        maxLength: 200,
      }),
      (rate, steps) => {
        let bucket: RateBucket | null = null;
        let now = 0;
        const grants: Array<{ at: number; n: number }> = [];
        for (const s of steps) {
          now += s.dt;
          const g = takeTokens(bucket, rate, now, s.want);
          assert.ok(g.granted >= 0 && g.granted <= s.want);
          if (g.blockedUntil !== 0) assert.ok(g.blockedUntil > now);
          bucket = g.bucket;
          grants.push({ at: now, n: g.granted });
        }
        for (let i = 0; i < grants.length; i++) {
          let sum = 0;
          for (let j = i; j < grants.length; j++) {
            sum += grants[j].n;
            assert.ok(
              sum <= rateBurst(rate) + (rate * (grants[j].at - grants[i].at)) / 1000 + 1e-6,
              `span ${i}..${j}: ${sum}`,
            );
          }
        }
      },
    ),
  );
  // Asking every blockedUntil for more than there is yields the rate itself.
  let bucket: RateBucket | null = null;
  let now = 0;
  let total = 0;
  while (now < 10_000) {
    const g = takeTokens(bucket, 37, now, 1000);
    total += g.granted;
    bucket = g.bucket;
    now = g.blockedUntil || now + 1;
  }
  assert.ok(Math.abs(total - 370) <= rateBurst(37) + 1, `granted ${total} in 10 s at 37/s`);
});

test('deferred deliveries get one slot each at the rate, after the slots already given', () => {
  assert.deepEqual(deferSlots(3, 50, 1000, 1020, 0), { dues: [1020, 1040, 1060], scheduledUntil: 1080 });
  assert.deepEqual(deferSlots(2, 50, 1000, 1020, 1500), { dues: [1500, 1520], scheduledUntil: 1540 });
  assert.deepEqual(deferSlots(1, 3, 1000, 0, 0), { dues: [1334], scheduledUntil: 1667 });
});
