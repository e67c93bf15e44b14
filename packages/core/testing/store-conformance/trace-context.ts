// Store conformance, trace context (docs/observability.md#traces): an event's traceparent and tracestate stored with
// it on every accept path, handed to the worker that claims its deliveries, and each attempt's trace id recorded.
import assert from 'node:assert/strict';
import type { NewEvent, Store } from '../../src/store/store.ts';
import { attemptOf, endpoint, MIN, newEvent, record, S, secret, setup, T0, type WithStore } from './fixtures.ts';

const TP = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';

const claim = (store: Store, now: number) =>
  store.queue.claimDue({ now, limit: 10, leaseUntil: now + MIN, workerId: 'w1', saturatedEndpoints: [] });

function traced(ne: NewEvent, tracestate: string | null = 'vendor=abc'): NewEvent {
  ne.event.traceparent = TP;
  ne.event.tracestate = tracestate;
  return ne;
}

export function traceContextConformance(withStore: WithStore): void {
  withStore(
    'an event keeps its trace context; its claimed deliveries carry it; attempts keep their trace id',
    async (store) => {
      await setup(store);
      // A batch (PostgreSQL's one-statement insert) with an event with a context, one without, one with no tracestate.
      await store.events.acceptEvents([
        traced(newEvent('ten_A', 1, ['ep_1'])),
        newEvent('ten_A', 2, ['ep_1']),
        traced(newEvent('ten_A', 3, ['ep_2']), null),
      ]);
      const got = await store.events.getEvent('ten_A', 'e-1');
      assert.equal(got?.event.traceparent, TP);
      assert.equal(got?.event.tracestate, 'vendor=abc');
      const none = await store.events.getEvent('ten_A', 'e-2');
      assert.equal(none?.event.traceparent, null);
      assert.equal(none?.event.tracestate, null);
      assert.equal((await store.events.getEvent('ten_A', 'e-3'))?.event.tracestate, null);

      const claimed = await claim(store, T0);
      const byId = new Map(claimed.map((c) => [c.delivery.id, c]));
      assert.deepEqual(byId.get('dlv_000001_0')?.trace, { traceparent: TP, tracestate: 'vendor=abc' });
      assert.equal(byId.get('dlv_000002_0')?.trace, null);
      assert.deepEqual(byId.get('dlv_000003_0')?.trace, { traceparent: TP, tracestate: null });

      // A batch of records (one statement on both stores): the trace id of each attempt, null where tracing was off.
      const a1 = { ...attemptOf('dlv_000001_0', 'ten_A', 'ep_1', 1, T0 + S, 'success'), traceId: TRACE };
      const a2 = attemptOf('dlv_000002_0', 'ten_A', 'ep_1', 1, T0 + S, 'success');
      await store.queue.recordAttempts(
        [record(a1, 'w1', { status: 'succeeded' }), record(a2, 'w1', { status: 'succeeded' })],
        T0 + 2 * S,
      );
      assert.equal((await store.reporting.listAttempts('dlv_000001_0'))[0]?.traceId, TRACE);
      assert.equal((await store.reporting.listAttempts('dlv_000002_0'))[0]?.traceId, null);
    },
  );

  withStore(
    'one by one (a keyed event and its record, a test attempt), the trace context and trace id are kept too',
    async (store) => {
      await setup(store);
      await store.catalog.createEndpoint(endpoint('ep_k', 'ten_A', { ordering: 'key' }), secret('sec_k', 'ep_k'));
      const ne = traced(newEvent('ten_A', 1, ['ep_k']));
      ne.event.orderingKey = 'order-1';
      ne.deliveries[0]!.orderingKey = 'order-1';
      await store.events.acceptEvents([ne]);
      assert.equal((await store.events.getEvent('ten_A', 'e-1'))?.event.traceparent, TP);
      const [c] = await claim(store, T0);
      assert.deepEqual(c?.trace, { traceparent: TP, tracestate: 'vendor=abc' });
      const a = { ...attemptOf('dlv_000001_0', 'ten_A', 'ep_k', 1, T0 + S, 'success'), traceId: TRACE };
      await store.queue.recordAttempts(
        [record(a, 'w1', { status: 'succeeded' }, { ordering: { endpointId: 'ep_k', key: 'order-1' } })],
        T0 + 2 * S,
      );
      assert.equal((await store.reporting.listAttempts('dlv_000001_0'))[0]?.traceId, TRACE);

      // A test delivery: its event and leased delivery inserted, its one attempt recorded with its trace id.
      const test = newEvent('ten_A', 2, ['ep_1']);
      test.deliveries[0]!.lease = { workerId: 'w1', until: T0 + MIN };
      await store.events.acceptEvents([test]);
      const t = { ...attemptOf('dlv_000002_0', 'ten_A', 'ep_1', 1, T0 + S, 'success'), trigger: 'test' as const };
      await store.queue.recordTestAttempt(
        { ...t, traceId: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' },
        null,
        T0 + 2 * S,
        'w1',
      );
      assert.equal(
        (await store.reporting.listAttempts('dlv_000002_0'))[0]?.traceId,
        'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      );
    },
  );
}
