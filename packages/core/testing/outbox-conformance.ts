// Conformance checks of the notification outbox (docs/rules.md#notifications) that every Store must pass: rows written in
// the transition's own transaction, claimed with a lease, finished, retried, summarised, purged.
// store.sqlite.test.ts and store.postgres.test.ts call it with their factory, as they call store-conformance.ts.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Attempt, Endpoint } from '../src/domain.ts';
import { breakerEntry } from '../src/outbox/outbox-entries.ts';
import type { AttemptRecord, BreakerRow, Store } from '../src/store/store.ts';
import { within } from './deadline.ts';
import type { StoreFactory } from './store-conformance/index.ts';
import { MIN } from './time.ts';

const T0 = Date.UTC(2026, 0, 5, 12);
const WINDOW = 15 * MIN;

const endpoint = (id: string, tenantId: string): Endpoint => ({
  id,
  tenantId,
  url: `https://example.test/${id}`,
  description: '',
  eventTypes: [],
  policy: 'standard',
  scheme: 'hookline',
  timeoutMs: null,
  maxConcurrency: 100,
  status: 'active',
  pauseReason: null,
  failingSince: null,
  consecutiveFailedEvents: 0,
  lastSuccessAt: null,
  createdAt: T0,
  updatedAt: T0,
});

async function setup(store: Store, endpoints = ['ep_1']) {
  await store.catalog.createTenant({
    id: 'ten_O',
    name: 'O',
    ownerEmails: ['o@example.test'],
    operationsEndpointId: null,
    notifyEmail: true,
    createdAt: T0,
    updatedAt: T0,
  });
  for (const id of endpoints)
    await store.catalog.createEndpoint(endpoint(id, 'ten_O'), {
      kid: `sec_${id}`,
      endpointId: id,
      sealed: 's',
      createdAt: T0,
      expiresAt: null,
    });
}

let events = 0;
/** Accepts one event per (endpoint, money) pair and claims its delivery; returns the delivery ids. */
async function claimed(
  store: Store,
  endpointId: string,
  n: number,
  o: { money?: boolean; at?: number } = {},
): Promise<string[]> {
  const at = o.at ?? T0;
  const batch = Array.from({ length: n }, () => {
    const k = ++events;
    const pk = `evt_${String(k).padStart(6, '0')}`;
    return {
      event: {
        id: pk,
        tenantId: 'ten_O',
        eventId: `e-${k}`,
        type: o.money ? 'refund.completed' : 'order.created',
        version: '1',
        occurredAt: new Date(at).toISOString(),
        body: Buffer.from('{}'),
        isMoney: o.money ?? false,
        createdAt: at,
      },
      bodyHash: `h-${k}`,
      deliveries: [
        { id: `dlv_${String(k).padStart(6, '0')}`, endpointId, status: 'pending' as const, nextAttemptAt: at },
      ],
    };
  });
  await store.events.acceptEvents(batch);
  const c = await store.queue.claimDue({
    now: at,
    limit: n,
    leaseUntil: at + MIN,
    workerId: 'w',
    saturatedEndpoints: [],
  });
  return c.map((x) => x.delivery.id).sort();
}

function failure(
  deliveryId: string,
  endpointId: string,
  at: number,
  next: AttemptRecord['next'],
  over: Partial<AttemptRecord> = {},
): AttemptRecord {
  const attempt: Attempt = {
    id: `att_${deliveryId}_${at}`,
    deliveryId,
    tenantId: 'ten_O',
    environment: 'live',
    endpointId,
    n: 1,
    trigger: 'scheduled',
    ladder: 'fast',
    startedAt: at,
    durationMs: 5,
    requestHeaders: {},
    responseStatus: 500,
    responseHeaders: {},
    responseExcerpt: 'x',
    errorClass: 'status',
    errorMessage: null,
    outcome: 'delivery_failure',
  };
  return {
    attempt,
    workerId: 'w',
    next,
    replayId: null,
    previousAttemptAt: null,
    breakerScope: null,
    progress: { fastFailures: 1, slowFailures: 0, slowStartedAt: null, firstAttemptAt: at },
    health: { rule: { pauseOnGone: false }, countsFailure: true, countsSuccess: true },
    ...over,
  };
}

export function outboxConformance(name: string, factory: StoreFactory, options: { skip?: string | false } = {}): void {
  const withStore = (title: string, fn: (store: Store) => Promise<void>) =>
    test(title, async () => {
      const s = await factory();
      try {
        await fn(s.store);
      } finally {
        await s.cleanup();
      }
    });

  describe(`outbox conformance: ${name}`, { skip: options.skip || false }, () => {
    withStore(
      'a degradation is in the outbox with the attempt that caused it, once, even when the commit is retried',
      async (store) => {
        await setup(store);
        const [d] = await claimed(store, 'ep_1', 1);
        const rec = failure(d, 'ep_1', T0, { status: 'pending', nextAttemptAt: T0 + MIN, ladder: 'fast' });
        const transitions = await store.queue.recordAttempts([rec], T0);
        assert.deepEqual(
          transitions.map((t) => t.to),
          ['degraded'],
        );
        await store.queue.recordAttempts([rec], T0); // a retried commit whose outcome was lost
        const rows = await store.outbox.claimOutbox(T0, 10, T0 + MIN);
        assert.equal(rows.length, 1);
        const [r] = rows;
        assert.deepEqual(
          [r.kind, r.tenantId, r.subjectId, r.endpointId, r.status, r.tries, r.dueAt],
          ['endpoint.degraded', 'ten_O', 'ep_1', 'ep_1', 'pending', 0, T0],
        );
        assert.equal(r.data.url, 'https://example.test/ep_1');
        assert.match(r.id, /^ntc_/);
      },
    );

    withStore(
      'claims lease rows until the lease lapses; finish is once; a failed send is due later or abandoned',
      async (store) => {
        await setup(store, ['ep_1', 'ep_2']);
        for (const ep of ['ep_1', 'ep_2']) {
          const [d] = await claimed(store, ep, 1);
          await store.queue.recordAttempts(
            [failure(d, ep, T0, { status: 'pending', nextAttemptAt: T0 + MIN, ladder: 'fast' })],
            T0,
          );
        }
        const first = await store.outbox.claimOutbox(T0, 1, T0 + MIN);
        assert.equal(first.length, 1, 'the limit');
        const second = await store.outbox.claimOutbox(T0, 10, T0 + MIN);
        assert.equal(second.length, 1, 'the other row; the first is leased');
        assert.notEqual(second[0].id, first[0].id);
        assert.deepEqual(await store.outbox.claimOutbox(T0 + MIN - 1, 10, T0 + 2 * MIN), [], 'both leased');
        const again = await store.outbox.claimOutbox(T0 + MIN, 10, T0 + 2 * MIN);
        assert.deepEqual(
          again.map((r) => r.id).sort(),
          [first[0].id, second[0].id].sort(),
          'a lapsed lease is claimed again (its worker died)',
        );

        assert.equal(await store.outbox.finishOutbox(first[0].id, T0 + MIN), true);
        assert.equal(await store.outbox.finishOutbox(first[0].id, T0 + MIN), false, 'finished once');
        await store.outbox.retryOutbox(second[0].id, { dueAt: T0 + 5 * MIN }, 'smtp down', T0 + MIN);
        assert.deepEqual(
          await store.outbox.claimOutbox(T0 + 5 * MIN - 1, 10, T0 + 6 * MIN),
          [],
          'not due yet, and the sent one never again',
        );
        const [retried] = await store.outbox.claimOutbox(T0 + 5 * MIN, 10, T0 + 6 * MIN);
        assert.deepEqual([retried.id, retried.tries, retried.lastError], [second[0].id, 1, 'smtp down']);
        assert.equal(
          await store.outbox.releaseOutboxLeases(),
          1,
          "a restarted single worker hands back the dead one's lease",
        );
        await store.outbox.retryOutbox(retried.id, { abandon: true }, 'still down', T0 + 6 * MIN);
        assert.deepEqual(
          await store.outbox.claimOutbox(T0 + 1000 * MIN, 10, T0 + 1001 * MIN),
          [],
          'abandoned rows are not claimed',
        );

        assert.equal(await store.retention.purgeOutbox(T0 + 6 * MIN), 1, 'the sent row, older than the cutoff');
        assert.equal(await store.retention.purgeOutbox(T0 + 6 * MIN + 1), 1, 'the abandoned row');
        assert.equal(await store.retention.purgeOutbox(T0 + 9999 * MIN), 0);
      },
    );

    withStore(
      'deliveries that fail for good are summarised per endpoint: at once, then at most once per window, count and first ids',
      async (store) => {
        await setup(store, ['ep_1', 'ep_2']);
        const a = await claimed(store, 'ep_1', 1, { money: true });
        await store.queue.recordAttempts(
          a.map((d) => failure(d, 'ep_1', T0, { status: 'failed', reason: 'HTTP 500' })),
          T0,
        );
        assert.equal(await store.outbox.flushFailureSummaries(T0, WINDOW), 1, 'the first failure is told at once');
        assert.equal(await store.outbox.flushFailureSummaries(T0, WINDOW), 0, 'and once');

        const b = await claimed(store, 'ep_1', 24, { at: T0 + MIN });
        await store.queue.recordAttempts(
          b.map((d) => failure(d, 'ep_1', T0 + MIN, { status: 'failed', reason: 'HTTP 500' })),
          T0 + MIN,
        );
        const c = await claimed(store, 'ep_1', 2, { at: T0 + 2 * MIN });
        await store.queue.endDeliveries(c, 'w', 'failed', 'endpoint_paused', T0 + 2 * MIN);
        const replayed = await claimed(store, 'ep_2', 1, { at: T0 + 2 * MIN });
        await store.queue.recordAttempts(
          [
            failure(
              replayed[0],
              'ep_2',
              T0 + 2 * MIN,
              { status: 'failed', reason: 'HTTP 500' },
              { replayId: 'rpl_x', health: null },
            ),
          ],
          T0 + 2 * MIN,
        );
        const tested = await claimed(store, 'ep_2', 1, { at: T0 + 2 * MIN });
        await store.queue.endDeliveries(tested, 'w', 'failed', 'test delivery failed', T0 + 2 * MIN, {
          summarise: false,
        });
        assert.equal(
          await store.outbox.flushFailureSummaries(T0 + WINDOW - 1, WINDOW),
          0,
          'within 15 minutes of the last summary: nothing',
        );
        assert.equal(
          await store.outbox.flushFailureSummaries(T0 + WINDOW, WINDOW),
          1,
          'one summary for ep_1; a failed replay and a test delivery are no news',
        );

        const rows = (await store.outbox.claimOutbox(T0 + WINDOW, 10, T0 + 2 * WINDOW)).filter(
          (r) => r.kind === 'deliveries.failed',
        );
        assert.equal(rows.length, 2);
        const [one, many] = rows.sort((x, y) => Number(x.data.count) - Number(y.data.count));
        assert.deepEqual([one.data.count, one.data.money, one.data.more, one.endpointId], [1, 1, 0, 'ep_1']);
        assert.deepEqual((one.data.deliveries as Array<Record<string, unknown>>)[0], {
          delivery_id: a[0],
          event_id: `e-${Number(a[0].slice(4))}`,
          event_type: 'refund.completed',
          money: true,
        });
        assert.deepEqual(
          [many.data.count, many.data.money, many.data.more],
          [26, 0, 6],
          '24 failed attempts and 2 ended without one',
        );
        const listed = (many.data.deliveries as Array<{ delivery_id: string }>).map((x) => x.delivery_id);
        assert.deepEqual(listed, b.slice(0, 20), 'the first 20 ids');
        assert.deepEqual(
          [many.data.since, many.data.until],
          [new Date(T0 + MIN).toISOString(), new Date(T0 + 2 * MIN).toISOString()],
        );
      },
    );

    withStore("a breaker transition's notification is written only by the compare-and-set that wins", async (store) => {
      await setup(store);
      const row = (over: Partial<BreakerRow>): BreakerRow => ({
        scopeKey: 'tenant:ten_O',
        tenantId: 'ten_O',
        state: 'open',
        pauseMs: 5 * MIN,
        openedAt: T0,
        nextProbeAt: T0 + 5 * MIN,
        probeDeliveryId: null,
        updatedAt: T0,
        ...over,
      });
      const entry = () =>
        breakerEntry({
          at: T0,
          scope: 'tenant',
          scopeKey: 'tenant:ten_O',
          tenantId: 'ten_O',
          from: 'closed',
          to: 'open',
          reason: 'failure_ratio',
          pauseMs: 5 * MIN,
          nextProbeAt: T0 + 5 * MIN,
          probeDeliveryId: null,
        });
      // The notification is written on the transition's own transaction: one written beside it (on another
      // connection, or on SQLite's one connection while the transaction holds it) could outlive a failed commit or
      // wait for the transaction forever. A few seconds is ample for two rows; a hang fails here, named.
      assert.equal(
        await within(
          'the breaker row and its notification, in one transaction',
          5_000,
          store.breakers.saveBreaker(row({}), null, entry()),
        ),
        true,
      );
      assert.equal(
        await store.breakers.saveBreaker(row({ updatedAt: T0 + 1 }), null, entry()),
        false,
        'lost: the row exists',
      );
      assert.equal(
        await store.breakers.saveBreaker(row({ updatedAt: T0 + 2 }), T0 + 1, entry()),
        false,
        'lost: stale expectation',
      );
      const rows = await store.outbox.claimOutbox(T0, 10, T0 + MIN);
      assert.deepEqual(
        rows.map((r) => [r.kind, r.subjectId, r.endpointId]),
        [['breaker.opened', 'tenant:ten_O', null]],
      );
    });

    withStore("the health sweep's pause is in the outbox with the pause, and only when it paused", async (store) => {
      await setup(store);
      const [d] = await claimed(store, 'ep_1', 1);
      await store.queue.recordAttempts([failure(d, 'ep_1', T0, { status: 'failed', reason: 'HTTP 500' })], T0);
      const failingSince = (await store.catalog.getEndpoint('ten_O', 'ep_1'))!.failingSince!;
      assert.equal(
        await store.breakers.pauseFailingEndpoint('ep_1', failingSince + 1, T0 + MIN),
        false,
        'another streak',
      );
      assert.equal(await store.breakers.pauseFailingEndpoint('ep_1', failingSince, T0 + MIN), true);
      const kinds = (await store.outbox.claimOutbox(T0 + MIN, 10, T0 + 2 * MIN)).map((r) => [r.kind, r.data.reason]);
      assert.deepEqual(kinds, [
        ['endpoint.degraded', 'failing'],
        ['endpoint.paused', 'failing'],
      ]);
    });

    withStore('a notice added twice under one id is listed once', async (store) => {
      await setup(store);
      const notice = {
        id: 'ntc_1',
        tenantId: 'ten_O',
        kind: 'endpoint.degraded',
        subjectId: 'ep_1',
        message: 'm',
        data: {},
        createdAt: T0,
      };
      await store.outbox.addNotice(notice);
      await store.outbox.addNotice(notice);
      assert.equal((await store.outbox.listNotices('ten_O', null, 10)).items.length, 1);
    });
  });
}
