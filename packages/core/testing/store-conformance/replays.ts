// Store conformance, replays: window replays (selection, daily quota, its atomicity) and single replays.
import assert from 'node:assert/strict';
import type { Store, WindowReplayResult } from '../../src/store/store.ts';
import { endpoint, failedSetup, H, MIN, newEvent, S, secret, T0, tenant, type WithStore } from './fixtures.ts';

export function replaysConformance(withStore: WithStore): void {
  const replay = (id: string, kind: 'window' | 'single', over: Record<string, unknown> = {}) => ({
    id,
    tenantId: 'ten_A',
    endpointId: 'ep_1',
    kind,
    sinceMs: T0 - H,
    untilMs: T0 + H,
    includeSkipped: false,
    selected: 0,
    attempted: 0,
    succeeded: 0,
    failed: 0,
    createdAt: T0 + H,
    ...over,
  });

  /** Worker w's claim of what is due at `now` (a lease of one hour). */
  const claimAt = (store: Store, now: number) =>
    store.queue.claimDue({ now, limit: 10, leaseUntil: now + H, workerId: 'w', saturatedEndpoints: [] });

  const selected = async (p: Promise<WindowReplayResult>) => {
    const r = await p;
    assert.equal(r.kind, 'scheduled');
    return r.kind === 'scheduled' ? r.selected : -1;
  };

  withStore(
    "a replay's delivery ended unattempted (its endpoint paused) is done and failed for the replay",
    async (store) => {
      await failedSetup(store);
      await selected(
        store.replays.scheduleWindowReplay(replay('rpl_p', 'window', { sinceMs: T0 + 30 * S }), 100, T0 + H),
      );
      const [c] = await claimAt(store, T0 + H);
      assert.equal(c.replayId, 'rpl_p');
      await store.queue.endDeliveries([c.delivery.id], 'w', 'failed', 'endpoint_paused', T0 + H + 1);
      const d = await store.reporting.getDelivery('ten_A', c.delivery.id);
      assert.deepEqual([d?.status, d?.terminalReason], ['failed', 'endpoint_paused']);
      const r = await store.replays.getReplay('ten_A', 'rpl_p');
      assert.deepEqual([r?.selected, r?.attempted, r?.succeeded, r?.failed], [1, 1, 0, 1]);
      // Ending it again changes nothing, for the replay too.
      await store.queue.endDeliveries([c.delivery.id], null, 'failed', 'endpoint_paused', T0 + H + 2);
      assert.equal((await store.replays.getReplay('ten_A', 'rpl_p'))?.attempted, 1);
    },
  );

  withStore(
    'window replay selects failed (and on request skipped) deliveries in the window, oldest first, never succeeded',
    async (store) => {
      await failedSetup(store);
      assert.equal(
        await selected(
          store.replays.scheduleWindowReplay(replay('rpl_1', 'window', { sinceMs: T0 + 30 * S }), 100, T0 + H),
        ),
        1,
        'only the failure inside the window',
      );
      assert.equal((await store.replays.getReplay('ten_A', 'rpl_1'))?.selected, 1);
      const d3 = await store.reporting.getDelivery('ten_A', 'dlv_000003_0');
      assert.deepEqual([d3?.status, d3?.nextAttemptAt], ['pending', T0 + H]);
      const [c] = await claimAt(store, T0 + H);
      assert.equal(c.replayId, 'rpl_1');
      assert.equal(
        await selected(
          store.replays.scheduleWindowReplay(replay('rpl_2', 'window', { includeSkipped: true }), 1, T0 + H),
        ),
        1,
        'limit, oldest first',
      );
      assert.equal((await store.reporting.getDelivery('ten_A', 'dlv_000001_0'))?.status, 'pending');
      assert.equal(
        await selected(
          store.replays.scheduleWindowReplay(replay('rpl_3', 'window', { includeSkipped: true }), 100, T0 + H),
        ),
        1,
        'the skipped one',
      );
      assert.equal((await store.reporting.getDelivery('ten_A', 'dlv_000002_0'))?.status, 'succeeded');
    },
  );

  withStore(
    'window replay quota: counts only replays that selected something, since the given day start, per tenant',
    async (store) => {
      await failedSetup(store);
      const quota = { max: 1, since: T0 };
      assert.deepEqual(
        await store.replays.scheduleWindowReplay(
          replay('rpl_q1', 'window', { sinceMs: T0 + 2 * H }),
          100,
          T0 + H,
          quota,
        ),
        { kind: 'scheduled', selected: 0 },
        'nothing in the window',
      );
      assert.deepEqual(
        await store.replays.scheduleWindowReplay(replay('rpl_q2', 'window'), 1, T0 + H, quota),
        { kind: 'scheduled', selected: 1 },
        'the empty replay used no quota',
      );
      assert.deepEqual(
        await store.replays.scheduleWindowReplay(
          replay('rpl_q3', 'window', { includeSkipped: true }),
          100,
          T0 + H,
          quota,
        ),
        { kind: 'quota_exceeded', used: 1 },
      );
      assert.equal(await store.replays.getReplay('ten_A', 'rpl_q3'), null, 'a refused replay leaves no row');
      assert.deepEqual(
        [
          (await store.reporting.getDelivery('ten_A', 'dlv_000003_0'))?.status,
          (await store.reporting.getDelivery('ten_A', 'dlv_000004_0'))?.status,
        ],
        ['failed', 'skipped'],
        'and schedules nothing',
      );
      assert.deepEqual(
        await store.replays.scheduleWindowReplay(
          replay('rpl_q4', 'window', { sinceMs: T0 + 2 * H }),
          100,
          T0 + H,
          quota,
        ),
        { kind: 'scheduled', selected: 0 },
        'selecting nothing is answered even at the quota',
      );
      assert.equal(
        await selected(
          store.replays.scheduleWindowReplay(
            replay('rpl_q5', 'window', { includeSkipped: true, createdAt: T0 + 25 * H }),
            100,
            T0 + 25 * H,
            { max: 1, since: T0 + 24 * H },
          ),
        ),
        2,
        'a new day',
      );
    },
  );

  withStore(
    'window replay quota is atomic: concurrent replays one below the quota, exactly one passes',
    async (store) => {
      await failedSetup(store);
      const quota = { max: 1, since: T0 };
      const results = await Promise.all(
        ['rpl_c1', 'rpl_c2', 'rpl_c3'].map((id) =>
          store.replays.scheduleWindowReplay(replay(id, 'window', { includeSkipped: true }), 1, T0 + H, quota),
        ),
      );
      assert.deepEqual(results.map((r) => r.kind).sort(), ['quota_exceeded', 'quota_exceeded', 'scheduled']);
    },
  );

  withStore(
    'window replay selects a failed delivery never attempted (ended while paused) by its creation time',
    async (store) => {
      await store.catalog.createTenant(tenant('ten_A'));
      await store.catalog.createEndpoint(endpoint('ep_1', 'ten_A'), secret('sec_1', 'ep_1'));
      await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1'], { at: T0 })]);
      const [c] = await store.queue.claimDue({
        now: T0 + MIN,
        limit: 1,
        leaseUntil: T0 + 2 * MIN,
        workerId: 'w',
        saturatedEndpoints: [],
      });
      await store.queue.endDeliveries([c.delivery.id], 'w', 'failed', 'endpoint_paused', T0 + MIN);
      assert.equal(
        await selected(
          store.replays.scheduleWindowReplay(
            replay('rpl_p', 'window', { sinceMs: T0 + 1, untilMs: T0 + H }),
            100,
            T0 + H,
          ),
        ),
        0,
        'created before the window',
      );
      assert.equal(
        await selected(
          store.replays.scheduleWindowReplay(replay('rpl_q', 'window', { sinceMs: T0, untilMs: T0 + H }), 100, T0 + H),
        ),
        1,
      );
      const d = await store.reporting.getDelivery('ten_A', c.delivery.id);
      assert.deepEqual([d?.status, d?.nextAttemptAt], ['pending', T0 + H]);
    },
  );

  withStore('single replay: failed or skipped only', async (store) => {
    await failedSetup(store);
    assert.equal(
      await store.replays.scheduleSingleReplay(replay('rpl_s1', 'single', { selected: 1 }), 'dlv_000001_0', T0 + H),
      true,
    );
    assert.equal((await store.reporting.getDelivery('ten_A', 'dlv_000001_0'))?.status, 'pending');
    assert.equal(
      await store.replays.scheduleSingleReplay(replay('rpl_s2', 'single'), 'dlv_000002_0', T0 + H),
      false,
      'succeeded is not replayable',
    );
    assert.equal(await store.replays.getReplay('ten_A', 'rpl_s2'), null, 'a refused replay leaves no row');
    assert.equal(
      await store.replays.scheduleSingleReplay(replay('rpl_s3', 'single'), 'dlv_000004_0', T0 + H),
      true,
      'skipped is',
    );
    await store.replays.createReplay(replay('rpl_c', 'window'));
    assert.deepEqual(await store.replays.getReplay('ten_A', 'rpl_c'), replay('rpl_c', 'window'));
    assert.equal(await store.replays.getReplay('ten_B', 'rpl_c'), null);
  });
}
