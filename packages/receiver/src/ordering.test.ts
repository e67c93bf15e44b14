import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  applyIfNewer,
  type ComponentState,
  type ComponentUpdate,
  checkArrival,
  componentValues,
  mergeComponents,
  type OccurredAt,
  type Ordered,
} from './ordering.ts';

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/** Exact decimal-string sum (no float drift), scale 4 as SMS prices use. */
function sumDecimals(values: string[]): string {
  const total = values.reduce((acc, v) => {
    const [whole, frac = ''] = v.split('.');
    return acc + BigInt(whole! + frac.padEnd(4, '0'));
  }, 0n);
  const digits = total.toString().padStart(5, '0');
  return `${digits.slice(0, -4)}.${digits.slice(-4)}`;
}

interface EmailState {
  occurred_at: string;
  event_id: string;
  status: string;
}

test('applyIfNewer: every arrival order ends in the latest status', () => {
  const events: EmailState[] = [
    { event_id: 'evt_a', occurred_at: '2025-06-15T10:00:00Z', status: 'accepted' },
    { event_id: 'evt_b', occurred_at: '2025-06-15T10:00:02Z', status: 'delivered' },
    { event_id: 'evt_c', occurred_at: '2025-06-15T10:00:05.250Z', status: 'opened' },
    { event_id: 'evt_d', occurred_at: '2025-06-15T10:00:01Z', status: 'sent' },
  ];
  for (const order of permutations(events)) {
    let state: EmailState | undefined;
    for (const event of order) state = applyIfNewer(state, event).state;
    assert.equal(state?.status, 'opened', order.map((e) => e.status).join(' → '));
  }
});

test('applyIfNewer: older is not applied; same instant breaks ties by event id; a redelivery is a no-op', () => {
  const newer = { occurred_at: '2025-01-01T10:20:00Z', event_id: 'evt_2', status: 'cancelled' };
  const older = { occurred_at: '2025-01-01T10:12:00Z', event_id: 'evt_1', status: 'shipped' };
  assert.deepEqual(applyIfNewer(newer, older), { state: newer, applied: false });
  assert.deepEqual(applyIfNewer(older, newer), { state: newer, applied: true });
  assert.equal(applyIfNewer(newer, newer).applied, false);
  type Tied = { occurred_at: OccurredAt; event_id?: string; status: string };
  const tieA: Tied = { occurred_at: 1000, event_id: 'evt_a', status: 'x' };
  const tieB: Tied = { occurred_at: new Date(1000), event_id: 'evt_b', status: 'y' };
  assert.equal(applyIfNewer(tieA, tieB).state.status, 'y');
  assert.equal(applyIfNewer(tieB, tieA).state.status, 'y');
  assert.throws(() => applyIfNewer(tieA, { occurred_at: 'yesterday', status: 'z' }), TypeError);
});

// The SMS cost example: each fee is priced by a different event; null means "not priced in this payload".
interface SmsEvent extends ComponentUpdate<string> {
  amount: string | null;
}
const sms: SmsEvent[] = [
  { event_id: 'evt_1', occurred_at: '2025-06-15T10:00:00Z', components: null, amount: null },
  {
    event_id: 'evt_2',
    occurred_at: '2025-06-15T10:00:01Z',
    components: { delivery_fee: '0.0050', carrier_fee: null },
    amount: '0.0050',
  },
  {
    event_id: 'evt_3',
    occurred_at: '2025-06-15T10:00:03Z',
    components: { delivery_fee: null, carrier_fee: '0.0025' },
    amount: '0.0025',
  },
  {
    event_id: 'evt_4',
    occurred_at: '2025-06-15T10:00:04Z',
    components: { delivery_fee: '0.0060', carrier_fee: null },
    amount: '0.0060',
  },
  {
    event_id: 'evt_0',
    occurred_at: '2025-06-15T09:59:59Z',
    components: { delivery_fee: '0.0040', carrier_fee: '0.0010' },
    amount: '0.0050',
  },
];

test('mergeComponents: all 120 arrival orders of the SMS cost events give the same cost', () => {
  for (const order of permutations(sms)) {
    let cost: ComponentState<string> = {};
    for (const event of order) cost = mergeComponents(cost, event);
    const values = componentValues(cost);
    assert.deepEqual(values, { delivery_fee: '0.0060', carrier_fee: '0.0025' }, order.map((e) => e.event_id).join(','));
    assert.equal(sumDecimals(Object.values(values)), '0.0085');
  }
});

test('mergeComponents: null is "not present", never zero; replacing the whole object would lose a fee', () => {
  let cost = mergeComponents({}, sms[2]!);
  cost = mergeComponents(cost, sms[1]!);
  assert.deepEqual(componentValues(cost), { delivery_fee: '0.0050', carrier_fee: '0.0025' });
  // The naive approach the seed warns against: the latest payload's amount alone.
  assert.equal(sms[2]!.amount, '0.0025');
  assert.deepEqual(mergeComponents(null, { occurred_at: 1, components: null }), {});
  const stored = mergeComponents({}, { occurred_at: 5, components: { fee: '1.0000' } });
  assert.deepEqual(componentValues(mergeComponents(stored, { occurred_at: 9, components: { fee: null } })), {
    fee: '1.0000',
  });
  assert.deepEqual(
    componentValues(mergeComponents(stored, { occurred_at: 9, components: { fee: '0.0000' } })),
    { fee: '0.0000' },
    'a real zero does apply',
  );
});

test('checkArrival: flags the older event that lands after a newer one, keeps the newest; a redelivery is a duplicate', () => {
  const a = { occurred_at: '2025-06-15T10:00:00Z', event_id: 'evt_a' };
  const b = { occurred_at: '2025-06-15T10:00:02Z', event_id: 'evt_b' };
  const c = { occurred_at: '2025-06-15T10:00:05Z', event_id: 'evt_c' };
  // In order: nothing flagged.
  let latest: typeof a | undefined;
  const seen: string[] = [];
  for (const e of [a, b, c]) {
    const r = checkArrival(latest, e);
    seen.push(r.arrival);
    latest = r.latest;
  }
  assert.deepEqual(seen, ['first', 'in_order', 'in_order']);
  // a's retry lands after c (what an unordered sender allows): flagged, and c stays the newest.
  assert.deepEqual(checkArrival(c, a), { arrival: 'out_of_order', latest: c });
  assert.deepEqual(checkArrival(c, b), { arrival: 'out_of_order', latest: c });
  assert.deepEqual(checkArrival(c, { ...c }), { arrival: 'duplicate', latest: c });
  // Same instant: ties by event id, as applyIfNewer; without ids the same instant is taken for the same event.
  assert.equal(
    checkArrival({ occurred_at: 1000, event_id: 'evt_b' }, { occurred_at: 1000, event_id: 'evt_a' }).arrival,
    'out_of_order',
  );
  assert.equal(
    checkArrival({ occurred_at: 1000, event_id: 'evt_a' }, { occurred_at: new Date(1000), event_id: 'evt_b' }).arrival,
    'in_order',
  );
  assert.equal(checkArrival({ occurred_at: 1000 }, { occurred_at: 1000 }).arrival, 'duplicate');
  // Every arrival order of four events: exactly the arrivals older than one seen before are flagged.
  for (const order of permutations([a, b, c, { occurred_at: '2025-06-15T10:00:01Z', event_id: 'evt_d' }])) {
    let newest: Ordered | undefined;
    let max = -Infinity;
    for (const e of order) {
      const t = Date.parse(e.occurred_at);
      const r = checkArrival(newest, e);
      assert.equal(r.arrival === 'out_of_order', t < max, order.map((x) => x.event_id).join(','));
      max = Math.max(max, t);
      newest = r.latest;
    }
  }
  assert.throws(() => checkArrival(a, { occurred_at: 'later', event_id: 'evt_x' }), TypeError);
});
