// Payload filters: what validation refuses (with the JSON Pointer of the bad part) and how conditions evaluate.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HooklineError } from '../errors.ts';
import { FILTER_LIMITS, matchesFilter, parsePayloadFilter, valueAt } from './payload-filter.ts';

const envelope = {
  event_id: 'evt_1',
  type: 'payment.status_changed',
  version: '1',
  occurred_at: '2026-01-05T12:00:00.000Z',
  data: { status: 'paid', amount: 1250, currency: 'EUR', tags: ['vip', 'eu'], customer: { tier: 'gold', score: null } },
};

function refused(input: unknown, pointer: string, detail?: RegExp): void {
  assert.throws(
    () => parsePayloadFilter(input),
    (err: unknown) => {
      assert.ok(err instanceof HooklineError);
      assert.equal(err.code, 'invalid_filter');
      assert.equal(err.status, 400);
      assert.equal(err.params.path, pointer, `pointer of ${JSON.stringify(input)}`);
      assert.equal(err.details?.[0].path, `/payload_filter${pointer === '/' ? '' : pointer}`);
      if (detail) assert.match(String(err.params.detail), detail);
      return true;
    },
  );
}

test('null and undefined mean no filter', () => {
  assert.equal(parsePayloadFilter(null), null);
  assert.equal(parsePayloadFilter(undefined), null);
});

test('validation names the bad part by JSON Pointer', () => {
  refused({}, '/', /operator|path/);
  refused([], '/', /must be an object/);
  refused({ path: 'data.status' }, '/', /at least one operator/);
  refused({ equals: 1 }, '/', /needs a "path"/);
  refused({ path: 'status', equals: 'paid' }, '/path', /start with one of event_id, type, version, occurred_at, data/);
  refused({ path: 'data..x', equals: 1 }, '/path', /segment/);
  refused({ path: 'data.a b', equals: 1 }, '/path', /segment/);
  refused({ path: 'data.x', equals: { a: 1 } }, '/equals', /string, number, boolean or null/);
  refused({ path: 'data.x', gt: '5' }, '/gt', /finite number/);
  refused({ path: 'data.x', lte: null }, '/lte', /finite number/);
  refused({ path: 'data.x', in: [] }, '/in', /non-empty/);
  refused({ path: 'data.x', in: ['a', []] }, '/in/1');
  refused({ path: 'data.x', exists: 'yes' }, '/exists', /true or false/);
  refused({ path: 'data.x', equal: 1 }, '/equal', /unknown key/);
  refused({ all: [] }, '/all', /non-empty/);
  refused({ all: [{ path: 'data.a', equals: 1 }], path: 'data.b' }, '/', /only its "all" key/);
  refused({ any: [{ path: 'data.a', equals: 1 }, { all: [{ path: 'data.b', gte: 'x' }] }] }, '/any/1/all/0/gte');
});

test('bounds: depth, node count, group size, in size, bytes, path length, string length', () => {
  let deep: unknown = { path: 'data.x', exists: true };
  for (let i = 0; i < FILTER_LIMITS.maxDepth - 1; i++) deep = { all: [deep] };
  assert.ok(parsePayloadFilter(deep), 'the deepest allowed nesting passes');
  refused({ all: [deep] }, `${'/all/0'.repeat(FILTER_LIMITS.maxDepth - 1)}/all`, /nest/);

  const cond = { path: 'data.x', equals: 1 };
  assert.ok(parsePayloadFilter({ all: Array(FILTER_LIMITS.maxGroupItems).fill(cond) }));
  refused({ all: Array(FILTER_LIMITS.maxGroupItems + 1).fill(cond) }, '/all', /at most 20/);
  const many = { any: Array.from({ length: 4 }, () => ({ all: Array(FILTER_LIMITS.maxGroupItems).fill(cond) })) };
  refused(many, '/any/3', /at most 64 conditions/); // 1 + 3 × 21 nodes before it
  refused(
    { path: 'data.x', in: Array.from({ length: FILTER_LIMITS.maxInItems + 1 }, (_, i) => i) },
    '/in',
    /at most 100/,
  );
  refused({ path: 'data.x', equals: 'x'.repeat(FILTER_LIMITS.maxBytes) }, '/', /at most 4096 bytes/);
  refused({ path: `data.${'a'.repeat(FILTER_LIMITS.maxPathLength)}`, exists: true }, '/path', /at most 256/);
  refused({ path: `data${'.a'.repeat(FILTER_LIMITS.maxPathSegments)}`, exists: true }, '/path', /at most 16 segments/);
  refused({ path: 'data.x', equals: 'y'.repeat(FILTER_LIMITS.maxStringLength + 1) }, '/equals', /at most 1024/);
});

test('normalised: unknown keys refused, known ones kept in a fixed shape', () => {
  assert.deepEqual(parsePayloadFilter({ lt: 10, path: 'data.amount', gte: 1 }), {
    path: 'data.amount',
    gte: 1,
    lt: 10,
  });
  assert.deepEqual(parsePayloadFilter({ any: [{ path: 'type', equals: 'a' }] }), {
    any: [{ path: 'type', equals: 'a' }],
  });
});

test('valueAt walks objects by own key and arrays by index', () => {
  assert.equal(valueAt(envelope, 'data.customer.tier'), 'gold');
  assert.equal(valueAt(envelope, 'data.tags.1'), 'eu');
  assert.equal(valueAt(envelope, 'data.tags.01'), undefined);
  assert.equal(valueAt(envelope, 'data.tags.length'), undefined, 'no array properties');
  assert.equal(valueAt(envelope, 'data.constructor'), undefined, 'no prototype keys');
  assert.equal(valueAt(envelope, 'data.amount.x'), undefined);
  assert.equal(valueAt(envelope, 'data.customer.score'), null);
});

test('conditions: equals, in, exists, numeric comparisons; all every operator of one condition', () => {
  const m = (f: unknown) => matchesFilter(parsePayloadFilter(f)!, envelope);
  assert.equal(m({ path: 'data.status', equals: 'paid' }), true);
  assert.equal(m({ path: 'data.status', equals: 'PAID' }), false);
  assert.equal(m({ path: 'data.amount', equals: '1250' }), false, 'strict: a string never equals a number');
  assert.equal(m({ path: 'data.customer.score', equals: null }), true);
  assert.equal(m({ path: 'data.missing', equals: null }), false, 'missing is not null');
  assert.equal(m({ path: 'data.customer', equals: 'gold' }), false, 'objects never equal scalars');
  assert.equal(m({ path: 'type', in: ['refund.completed', 'payment.status_changed'] }), true);
  assert.equal(m({ path: 'data.currency', in: ['USD', 'GBP'] }), false);
  assert.equal(m({ path: 'data.customer.score', exists: true }), true, 'null exists');
  assert.equal(m({ path: 'data.refund', exists: false }), true);
  assert.equal(m({ path: 'data.refund', exists: true }), false);
  assert.equal(m({ path: 'data.amount', gt: 1000 }), true);
  assert.equal(m({ path: 'data.amount', gt: 1250 }), false);
  assert.equal(m({ path: 'data.amount', gte: 1250 }), true);
  assert.equal(m({ path: 'data.amount', lt: 1250 }), false);
  assert.equal(m({ path: 'data.amount', lte: 1250 }), true);
  assert.equal(m({ path: 'data.amount', gte: 1000, lt: 2000 }), true, 'a range on one path');
  assert.equal(m({ path: 'data.amount', gte: 1000, lt: 1100 }), false);
  assert.equal(m({ path: 'data.status', gt: 0 }), false, 'numeric operators never match a string');
  assert.equal(m({ path: 'data.nothing', lt: 1 }), false, 'nor a missing field');
  assert.equal(m({ path: 'data.status', exists: true, equals: 'paid', in: ['paid'] }), true);
});

test('groups: all, any, nested', () => {
  const m = (f: unknown) => matchesFilter(parsePayloadFilter(f)!, envelope);
  const yes = { path: 'data.status', equals: 'paid' };
  const no = { path: 'data.status', equals: 'failed' };
  assert.equal(m({ all: [yes, yes] }), true);
  assert.equal(m({ all: [yes, no] }), false);
  assert.equal(m({ any: [no, yes] }), true);
  assert.equal(m({ any: [no, no] }), false);
  assert.equal(
    m({
      all: [
        { path: 'type', equals: 'payment.status_changed' },
        {
          any: [
            { path: 'data.amount', gte: 10_000 },
            { path: 'data.customer.tier', in: ['gold', 'platinum'] },
          ],
        },
      ],
    }),
    true,
  );
});
