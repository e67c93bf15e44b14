// Payload filters against literal expectations: a hand-written table of documents × filters → match, one section per
// operator and combinator of docs/filters.md, at their boundaries. The property tests compare the filter with
// itself; this table is the second layer that says what the answer is.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchesFilter, parsePayloadFilter } from './payload-filter.ts';

/** Five envelopes; a row's booleans are in this order: P, S, H, T, B. */
const documents = {
  /** Paid, the amount exactly on the 100 boundary, a null score, a zero quantity in the second item. */
  P: {
    event_id: 'evt_p',
    type: 'payment.status_changed',
    version: '1',
    occurred_at: '2026-01-05T12:00:00.000Z',
    data: {
      status: 'paid',
      amount: 100,
      currency: 'EUR',
      tags: ['vip', 'eu'],
      customer: { tier: 'gold', score: null },
      live: true,
      items: [
        { sku: 'a', qty: 2 },
        { sku: 'b', qty: 0 },
      ],
    },
  },
  /** Just under the boundary; no score; empty arrays; version 2. */
  S: {
    event_id: 'evt_s',
    type: 'payment.status_changed',
    version: '2',
    occurred_at: '2026-01-05T12:00:01.000Z',
    data: { status: 'pending', amount: 99.5, tags: [], customer: { tier: 'silver' }, live: false, items: [] },
  },
  /** Just over the boundary. */
  H: {
    event_id: 'evt_h',
    type: 'payment.status_changed',
    version: '1',
    occurred_at: '2026-01-05T12:00:02.000Z',
    data: {
      status: 'settled',
      amount: 100.5,
      currency: 'USD',
      tags: ['eu'],
      customer: { tier: 'platinum', score: 7 },
      live: true,
      items: [{ sku: 'c', qty: 1 }],
    },
  },
  /** The same names holding other JSON types: null status, numeric string amount, string tags and customer. */
  T: {
    event_id: 'evt_t',
    type: 'payment.refunded',
    version: '1',
    occurred_at: '2026-01-05T12:00:03.000Z',
    data: { status: null, amount: '100', tags: 'vip', customer: 'gold', live: 'true', items: [{ sku: 'a', qty: '2' }] },
  },
  /** Nothing under data. */
  B: { event_id: 'evt_b', type: 'ping', version: '1', occurred_at: '2026-01-05T12:00:04.000Z', data: {} },
} as const;

const order = ['P', 'S', 'H', 'T', 'B'] as const;
type Row = [filter: unknown, expected: [boolean, boolean, boolean, boolean, boolean]];

/** Every row, parsed as an endpoint would save it, against every document; all mismatches reported at once. */
function check(rows: Row[]): void {
  const wrong: string[] = [];
  for (const [input, expected] of rows) {
    const filter = parsePayloadFilter(input);
    assert.ok(filter, `${JSON.stringify(input)} parses to a filter`);
    order.forEach((name, i) => {
      const got = matchesFilter(filter, documents[name]);
      if (got !== expected[i]) wrong.push(`${JSON.stringify(input)} on ${name}: got ${got}, expected ${expected[i]}`);
    });
  }
  assert.deepEqual(wrong, []);
}

const t = true;
const f = false;

test('equals: strict JSON equality, null only equals null, arrays and objects never equal a scalar', () => {
  check([
    //                                                    P  S  H  T  B
    [{ path: 'data.status', equals: 'paid' }, [t, f, f, f, f]],
    [{ path: 'data.amount', equals: 100 }, [t, f, f, f, f]],
    [{ path: 'data.amount', equals: '100' }, [f, f, f, t, f]],
    [{ path: 'data.status', equals: null }, [f, f, f, t, f]],
    [{ path: 'data.customer.score', equals: null }, [t, f, f, f, f]],
    [{ path: 'data.live', equals: true }, [t, f, t, f, f]],
    [{ path: 'data.live', equals: false }, [f, t, f, f, f]],
    [{ path: 'data.tags', equals: 'vip' }, [f, f, f, t, f]],
    [{ path: 'data.customer', equals: 'gold' }, [f, f, f, t, f]],
    [{ path: 'type', equals: 'payment.refunded' }, [f, f, f, t, f]],
    [{ path: 'version', equals: '1' }, [t, f, t, t, t]],
    [{ path: 'version', equals: 1 }, [f, f, f, f, f]],
  ]);
});

test('in: equals one of the values, with the same strictness', () => {
  check([
    [{ path: 'data.status', in: ['paid', 'settled'] }, [t, f, t, f, f]],
    [{ path: 'data.status', in: [null, 'pending'] }, [f, t, f, t, f]],
    [{ path: 'data.amount', in: [100, 99.5] }, [t, t, f, f, f]],
    [{ path: 'data.amount', in: ['100'] }, [f, f, f, t, f]],
    [{ path: 'data.tags', in: ['vip'] }, [f, f, f, t, f]],
    [{ path: 'data.tags.0', in: ['vip'] }, [t, f, f, f, f]],
  ]);
});

test('exists: a null value exists, a missing key or a step through a scalar does not', () => {
  check([
    [{ path: 'data.customer.score', exists: true }, [t, f, t, f, f]],
    [{ path: 'data.customer.score', exists: false }, [f, t, f, t, t]],
    [{ path: 'data.status', exists: true }, [t, t, t, t, f]],
    [{ path: 'data.status', exists: false }, [f, f, f, f, t]],
    [{ path: 'data.tags.1', exists: true }, [t, f, f, f, f]],
    [{ path: 'data', exists: true }, [t, t, t, t, t]],
  ]);
});

test('gt, gte, lt, lte: each boundary, both sides', () => {
  check([
    [{ path: 'data.amount', gte: 100 }, [t, f, t, f, f]],
    [{ path: 'data.amount', gt: 100 }, [f, f, t, f, f]],
    [{ path: 'data.amount', lte: 100 }, [t, t, f, f, f]],
    [{ path: 'data.amount', lt: 100 }, [f, t, f, f, f]],
    [{ path: 'data.amount', gte: 100, lt: 100.5 }, [t, f, f, f, f]],
    [{ path: 'data.amount', gt: 99.5, lte: 100.5 }, [t, f, t, f, f]],
    [{ path: 'data.items.1.qty', gte: 0 }, [t, f, f, f, f]],
    [{ path: 'data.items.1.qty', gt: 0 }, [f, f, f, f, f]],
    [{ path: 'data.items.0.qty', gt: 1 }, [t, f, f, f, f]],
    [{ path: 'data.items.0.qty', lte: 1 }, [f, f, t, f, f]],
    [{ path: 'data.items.0.qty', lt: 1 }, [f, f, f, f, f]],
    [{ path: 'data.amount', gte: -1e9 }, [t, t, t, f, f]],
    [{ path: 'data.amount', lte: 1e9 }, [t, t, t, f, f]],
  ]);
});

test('numeric operators never hold for a string, null, boolean, array or missing value', () => {
  check([
    [{ path: 'data.status', lt: 1 }, [f, f, f, f, f]],
    [{ path: 'data.status', gte: -1e9 }, [f, f, f, f, f]],
    [{ path: 'data.customer.tier', gte: 0 }, [f, f, f, f, f]],
    [{ path: 'data.live', gte: 0 }, [f, f, f, f, f]],
    [{ path: 'data.tags', lte: 1e9 }, [f, f, f, f, f]],
    [{ path: 'data.customer.score', lte: 1e9 }, [f, f, t, f, f]],
  ]);
});

test('several operators in one condition must all hold', () => {
  check([
    [{ path: 'data.status', exists: true, equals: null }, [f, f, f, t, f]],
    [{ path: 'data.customer.score', exists: false, equals: null }, [f, f, f, f, f]],
    [{ path: 'data.amount', in: [100, 100.5, '100'], lt: 100.5 }, [t, f, f, f, f]],
    [{ path: 'data.amount', equals: 100.5, gte: 100 }, [f, f, t, f, f]],
  ]);
});

test('paths: nested keys, array indexes, and what leads nowhere', () => {
  check([
    [{ path: 'data.customer.tier', equals: 'gold' }, [t, f, f, f, f]],
    [{ path: 'data.customer.tier.x', exists: true }, [f, f, f, f, f]],
    [{ path: 'data.items.0.sku', in: ['a', 'c'] }, [t, f, t, t, f]],
    [{ path: 'data.items.1.sku', equals: 'b' }, [t, f, f, f, f]],
    // Only canonical indexes: `01` is not item 1, and an array's `length` is not a field.
    [{ path: 'data.tags.01', exists: true }, [f, f, f, f, f]],
    [{ path: 'data.tags.length', exists: true }, [f, f, f, f, f]],
    // Own properties only: nothing inherited from Object.prototype.
    [{ path: 'data.constructor', exists: true }, [f, f, f, f, f]],
  ]);
});

test('all and any, nested', () => {
  check([
    [
      {
        all: [
          { path: 'type', equals: 'payment.status_changed' },
          { path: 'data.amount', gte: 100 },
        ],
      },
      [t, f, t, f, f],
    ],
    [
      {
        any: [
          { path: 'data.status', equals: 'pending' },
          { path: 'data.amount', gt: 100 },
        ],
      },
      [f, t, t, f, f],
    ],
    [
      {
        all: [
          { path: 'data.live', equals: true },
          {
            any: [
              { path: 'data.customer.tier', in: ['gold'] },
              { path: 'data.amount', gte: 100.5 },
            ],
          },
        ],
      },
      [t, f, t, f, f],
    ],
    [
      {
        any: [
          { path: 'data.status', exists: false },
          { path: 'type', equals: 'payment.refunded' },
        ],
      },
      [f, f, f, t, t],
    ],
    [{ all: [{ path: 'data.status', exists: true }] }, [t, t, t, t, f]],
    [{ any: [{ path: 'data.status', exists: false }] }, [f, f, f, f, t]],
    [
      {
        any: [
          {
            all: [
              { path: 'version', equals: '2' },
              { path: 'data.live', equals: false },
            ],
          },
          { path: 'data.tags.0', equals: 'eu' },
        ],
      },
      [f, t, t, f, f],
    ],
  ]);
});
