// Store conformance, notices per incident (docs/rules.md#notifications): a degradation within the reopen window after a
// recovery reopens the incident and takes the untold recovery back; a recovery is told once it has held; a pause and
// a reactivation by hand; an incident's notices are resolved when it ends.
import assert from 'node:assert/strict';
import type { Attempt } from '../../src/domain.ts';
import type { OutboxRow, Store } from '../../src/store/store.ts';
import { attemptOf, DAY, H, MIN, newEvent, record, S, setup, T0, type WithStore } from './fixtures.ts';

const WINDOW = 15 * MIN;
let n = 0;

/** One attempt of a fresh event on ten_A/ep_1 at `at`, recorded with the reopen window; a failure stays pending. */
async function attempt(store: Store, at: number, outcome: Attempt['outcome'], status?: number) {
  const k = 900 + ++n;
  await store.events.acceptEvents([newEvent('ten_A', k, ['ep_1'], { at })]);
  const [c] = await store.queue.claimDue({
    now: at,
    limit: 1,
    leaseUntil: at + MIN,
    workerId: 'w',
    saturatedEndpoints: [],
  });
  assert.ok(c, `event ${k} is claimed`);
  const a = attemptOf(c.delivery.id, 'ten_A', 'ep_1', 1, at, outcome, status);
  const next =
    outcome === 'success'
      ? ({ status: 'succeeded' } as const)
      : ({ status: 'pending', nextAttemptAt: at + 100 * DAY, ladder: 'fast' } as const); // never due again here
  return store.queue.recordAttempts(
    [
      record(a, 'w', next, {
        health: { rule: { pauseOnGone: true }, countsFailure: true, countsSuccess: true, reopenWindowMs: WINDOW },
      }),
    ],
    at,
  );
}

/** What a drainer at `now` sends: the due rows, each finished and recorded as its notice. */
async function drain(store: Store, now: number): Promise<OutboxRow[]> {
  const rows = await store.outbox.claimOutbox(now, 100, now + MIN);
  for (const r of rows) {
    await store.outbox.addNotice({
      id: r.id,
      tenantId: r.tenantId,
      kind: r.kind,
      subjectId: r.subjectId,
      message: r.kind,
      data: r.data,
      createdAt: r.createdAt,
    });
    assert.equal(await store.outbox.finishOutbox(r.id, now), true);
  }
  return rows;
}

const notices = async (store: Store) =>
  (await store.outbox.listNotices('ten_A', null, 100)).items.reverse().map((x) => [x.kind, x.resolvedAt]);

export function incidentsConformance(withStore: WithStore): void {
  withStore(
    'degraded → recovered → degraded within the window is one incident: one degraded row, the recovery told once it held, the notice resolved',
    async (store) => {
      await setup(store);
      await attempt(store, T0, 'delivery_failure');
      assert.deepEqual(
        (await drain(store, T0)).map((r) => r.kind),
        ['endpoint.degraded'],
      );
      const flips = [
        (await attempt(store, T0 + S, 'success')).map((t) => t.to),
        (await attempt(store, T0 + 5 * S, 'delivery_failure')).map((t) => t.to),
        (await attempt(store, T0 + 6 * S, 'success')).map((t) => t.to),
      ];
      assert.deepEqual(
        flips,
        [['active'], ['degraded'], ['active']],
        'health flips as before (docs/rules.md#health-clear)',
      );
      assert.deepEqual(await drain(store, T0 + 6 * S + WINDOW - 1), [], 'nothing new while the window runs');
      const [told, ...more] = await drain(store, T0 + 6 * S + WINDOW);
      assert.deepEqual(more, [], 'the first recovery was taken back by the failure after it');
      assert.deepEqual(
        [told.kind, told.dueAt, told.data.at, told.data.held_ms],
        ['endpoint.recovered', T0 + 6 * S + WINDOW, new Date(T0 + 6 * S).toISOString(), WINDOW],
      );
      assert.deepEqual(await notices(store), [
        ['endpoint.degraded', T0 + 6 * S],
        ['endpoint.recovered', null],
      ]);
    },
  );

  withStore(
    'a degradation after the window is a new incident, whether or not the recovery was sent yet',
    async (store) => {
      await setup(store);
      await attempt(store, T0, 'delivery_failure');
      await drain(store, T0);
      await attempt(store, T0 + S, 'success');
      // No drainer ran meanwhile: the window is time, not whether the recovery went out.
      await attempt(store, T0 + S + 16 * MIN, 'delivery_failure');
      assert.deepEqual(
        (await drain(store, T0 + S + 16 * MIN)).map((r) => r.kind),
        ['endpoint.recovered', 'endpoint.degraded'],
      );
      assert.deepEqual(await notices(store), [
        ['endpoint.degraded', T0 + S],
        ['endpoint.recovered', null],
        ['endpoint.degraded', null],
      ]);
      // The same once the recovery was sent: the third failure, 16 min after the second recovery.
      await attempt(store, T0 + H, 'success');
      assert.deepEqual(
        (await drain(store, T0 + H + WINDOW)).map((r) => r.kind),
        ['endpoint.recovered'],
      );
      await attempt(store, T0 + H + 16 * MIN, 'delivery_failure');
      assert.deepEqual(
        (await drain(store, T0 + H + 16 * MIN)).map((r) => r.kind),
        ['endpoint.degraded'],
      );
      assert.deepEqual((await notices(store)).slice(2), [
        ['endpoint.degraded', T0 + H],
        ['endpoint.recovered', null],
        ['endpoint.degraded', null],
      ]);
    },
  );

  withStore(
    'a pause within the window takes the recovery back and is told; a reactivation by hand resolves the incident and tells nothing; a failure after it is a new incident',
    async (store) => {
      await setup(store);
      await attempt(store, T0, 'delivery_failure');
      await attempt(store, T0 + S, 'success');
      assert.deepEqual(
        (await attempt(store, T0 + 2 * S, 'delivery_failure', 410)).map((t) => [t.from, t.to]),
        [['active', 'paused']],
      );
      assert.deepEqual(
        (await drain(store, T0 + DAY)).map((r) => r.kind),
        ['endpoint.degraded', 'endpoint.paused'],
        'the endpoint did not recover: the recovery is never told',
      );
      assert.deepEqual(await notices(store), [
        ['endpoint.degraded', null],
        ['endpoint.paused', null],
      ]);
      const back = T0 + DAY + MIN;
      await store.catalog.updateEndpoint('ten_A', 'ep_1', { status: 'active', clearHealth: true }, back);
      assert.deepEqual(await drain(store, back + DAY), [], 'a reactivation by hand is not news');
      assert.deepEqual(await notices(store), [
        ['endpoint.degraded', back],
        ['endpoint.paused', back],
      ]);
      await attempt(store, back + S, 'delivery_failure');
      assert.deepEqual(
        (await drain(store, back + S)).map((r) => r.kind),
        ['endpoint.degraded'],
      );
    },
  );
}
