// Payload filters, properties over generated filters and envelopes: validation accepts what it produced, evaluation
// is total and agrees with boolean logic (all = and, any = or, in = a disjunction of equals, ranges split).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { matchesFilter, type PayloadFilter, parsePayloadFilter, valueAt } from './payload-filter.ts';

const key = fc.constantFrom('a', 'b', 'c', 'status', 'n');
const scalar = fc.oneof(
  fc.constantFrom('x', 'y', 'paid'),
  fc.integer({ min: -3, max: 3 }),
  fc.boolean(),
  fc.constant(null),
);
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const envelope = fc.record({
  event_id: fc.constant('e1'),
  type: fc.constantFrom('a.b', 'c.d'),
  version: fc.constant('1'),
  occurred_at: fc.constant('2026-01-01T00:00:00Z'),
  data: json,
});
const path = fc.oneof(
  fc.constantFrom('type', 'event_id'),
  fc.array(fc.oneof(key, fc.constantFrom('0', '1')), { minLength: 1, maxLength: 3 }).map((s) => `data.${s.join('.')}`),
);
const num = fc.integer({ min: -3, max: 3 });
const condition = fc.oneof(
  fc.record({ path, equals: scalar }),
  fc.record({ path, in: fc.array(scalar, { minLength: 1, maxLength: 4 }) }),
  fc.record({ path, exists: fc.boolean() }),
  fc.record({ path, gt: num }),
  fc.record({ path, gte: num, lt: num }),
  fc.record({ path, lte: num }),
);
const filter: fc.Arbitrary<PayloadFilter> = fc.letrec((tie) => ({
  f: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    condition,
    fc.record({ all: fc.array(tie('f'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ any: fc.array(tie('f'), { minLength: 1, maxLength: 3 }) }),
  ),
})).f as fc.Arbitrary<PayloadFilter>;

test('validation accepts every generated filter and returns it unchanged; parse is idempotent', () => {
  fc.assert(
    fc.property(filter, (f) => {
      const parsed = parsePayloadFilter(JSON.parse(JSON.stringify(f)));
      assert.deepEqual(parsed, JSON.parse(JSON.stringify(f)));
      assert.deepEqual(parsePayloadFilter(parsed), parsed);
    }),
    { numRuns: 300 },
  );
});

test('evaluation is total and deterministic on any JSON envelope', () => {
  fc.assert(
    fc.property(filter, envelope, (f, e) => {
      const a = matchesFilter(f, e);
      assert.equal(typeof a, 'boolean');
      assert.equal(matchesFilter(f, structuredClone(e)), a);
    }),
    { numRuns: 500 },
  );
});

test('all is conjunction, any is disjunction, a one-item group is its item', () => {
  fc.assert(
    fc.property(fc.array(filter, { minLength: 1, maxLength: 4 }), envelope, (fs, e) => {
      const each = fs.map((f) => matchesFilter(f, e));
      assert.equal(matchesFilter({ all: fs }, e), each.every(Boolean));
      assert.equal(matchesFilter({ any: fs }, e), each.some(Boolean));
      assert.equal(matchesFilter({ all: [fs[0]] }, e), each[0]);
      assert.equal(matchesFilter({ any: [fs[0]] }, e), each[0]);
    }),
    { numRuns: 300 },
  );
});

test('in is the disjunction of equals; several operators are the conjunction of each', () => {
  fc.assert(
    fc.property(path, fc.array(scalar, { minLength: 1, maxLength: 4 }), envelope, (p, values, e) => {
      assert.equal(
        matchesFilter({ path: p, in: values }, e),
        matchesFilter({ any: values.map((v) => ({ path: p, equals: v })) }, e),
      );
    }),
    { numRuns: 300 },
  );
  fc.assert(
    fc.property(path, num, num, envelope, (p, lo, hi, e) => {
      assert.equal(
        matchesFilter({ path: p, gte: lo, lt: hi }, e),
        matchesFilter(
          {
            all: [
              { path: p, gte: lo },
              { path: p, lt: hi },
            ],
          },
          e,
        ),
      );
    }),
    { numRuns: 300 },
  );
});

test('on a number, gt and lte partition; on anything else neither matches', () => {
  fc.assert(
    fc.property(path, num, envelope, (p, x, e) => {
      const gt = matchesFilter({ path: p, gt: x }, e);
      const lte = matchesFilter({ path: p, lte: x }, e);
      const isNumber = typeof valueAt(e, p) === 'number';
      if (isNumber) assert.notEqual(gt, lte);
      else assert.deepEqual([gt, lte], [false, false]);
    }),
    { numRuns: 500 },
  );
});

test('exists true and exists false are complements; equals implies exists', () => {
  fc.assert(
    fc.property(path, scalar, envelope, (p, v, e) => {
      assert.notEqual(matchesFilter({ path: p, exists: true }, e), matchesFilter({ path: p, exists: false }, e));
      if (matchesFilter({ path: p, equals: v }, e)) assert.ok(matchesFilter({ path: p, exists: true }, e));
    }),
    { numRuns: 500 },
  );
});
