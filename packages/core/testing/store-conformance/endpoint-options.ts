// Store conformance, endpoint options of migration 010: payload filter and custom headers round trips, the pause start
// (paused_at) on every path to paused, and reactivation with a catch-up replay in one transaction.
import assert from 'node:assert/strict';
import type { ReplayRow } from '../../src/store/store.ts';
import { attemptOf, DAY, endpoint, H, MIN, newEvent, record, secret, T0, tenant, type WithStore } from './fixtures.ts';

export function endpointOptionsConformance(withStore: WithStore): void {
  const catchUp = (id: string, at: number): ReplayRow => ({
    id,
    tenantId: 'ten_A',
    endpointId: 'ep_1',
    kind: 'window',
    sinceMs: null,
    untilMs: at,
    includeSkipped: true,
    selected: 0,
    attempted: 0,
    succeeded: 0,
    failed: 0,
    createdAt: at,
  });
  const reactivate = { status: 'active' as const, pauseReason: null, clearHealth: true };

  withStore(
    'payload filter and custom headers round-trip through create, edit, the tenant list and a claim',
    async (store) => {
      await store.catalog.createTenant(tenant('ten_A'));
      const payloadFilter = {
        any: [
          { path: 'data.n', gte: 2 },
          { path: 'type', equals: 'x' },
        ],
      };
      await store.catalog.createEndpoint(
        endpoint('ep_1', 'ten_A', { payloadFilter, customHeaders: { 'X-Tenant': 'acme' } }),
        secret('sec_1', 'ep_1'),
      );
      await store.catalog.createEndpoint(endpoint('ep_2', 'ten_A'), secret('sec_2', 'ep_2'));
      const got = await store.catalog.getEndpoint('ten_A', 'ep_1');
      assert.deepEqual([got?.payloadFilter, got?.customHeaders], [payloadFilter, { 'X-Tenant': 'acme' }]);
      const plain = await store.catalog.getEndpoint('ten_A', 'ep_2');
      assert.deepEqual([plain?.payloadFilter, plain?.customHeaders], [null, {}]);
      const edited = await store.catalog.updateEndpoint('ten_A', 'ep_1', { customHeaders: { 'X-B': '2' } }, T0 + MIN);
      assert.deepEqual(
        [edited?.payloadFilter, edited?.customHeaders],
        [payloadFilter, { 'X-B': '2' }],
        'headers replaced, filter kept',
      );
      await store.catalog.updateEndpoint('ten_A', 'ep_1', { payloadFilter: null, description: 'd' }, T0 + 2 * MIN);
      const [listed] = (await store.catalog.listTenantEndpoints('ten_A')).filter((e) => e.id === 'ep_1');
      assert.deepEqual([listed.payloadFilter, listed.customHeaders, listed.description], [null, { 'X-B': '2' }, 'd']);
      await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1'], { at: T0 + 3 * MIN })]);
      const [c] = await store.queue.claimDue({
        now: T0 + 3 * MIN,
        limit: 1,
        leaseUntil: T0 + H,
        workerId: 'w',
        saturatedEndpoints: [],
      });
      assert.deepEqual(c.endpoint.customHeaders, { 'X-B': '2' });
    },
  );

  withStore(
    'paused_at: the start of the current pause, by any path; kept by edits while paused, cleared on reactivation',
    async (store) => {
      await store.catalog.createTenant(tenant('ten_A'));
      await store.catalog.createEndpoint(
        endpoint('ep_1', 'ten_A', { status: 'paused', pauseReason: 'manual', createdAt: T0, updatedAt: T0 }),
        secret('sec_1', 'ep_1'),
      );
      assert.equal((await store.catalog.getEndpoint('ten_A', 'ep_1'))?.pausedAt, T0, 'created paused');
      assert.equal(
        (await store.catalog.updateEndpoint('ten_A', 'ep_1', { description: 'x' }, T0 + H))?.pausedAt,
        T0,
        'an edit while paused keeps it',
      );
      assert.equal((await store.catalog.updateEndpoint('ten_A', 'ep_1', reactivate, T0 + 2 * H))?.pausedAt, null);
      assert.equal(
        (await store.catalog.updateEndpoint('ten_A', 'ep_1', { status: 'paused', pauseReason: 'manual' }, T0 + 3 * H))
          ?.pausedAt,
        T0 + 3 * H,
      );
      assert.equal((await store.catalog.getEndpoint('ten_A', 'ep_1'))?.pausedAt, T0 + 3 * H);

      await store.catalog.createEndpoint(
        endpoint('ep_2', 'ten_A', { status: 'degraded', failingSince: T0 }),
        secret('sec_2', 'ep_2'),
      );
      assert.equal((await store.catalog.getEndpoint('ten_A', 'ep_2'))?.pausedAt, null);
      assert.equal(await store.breakers.pauseFailingEndpoint('ep_2', T0, T0 + 5 * DAY), true);
      assert.equal((await store.catalog.getEndpoint('ten_A', 'ep_2'))?.pausedAt, T0 + 5 * DAY, 'the health sweep');

      // A 410 pauses through the attempt record.
      await store.catalog.createEndpoint(endpoint('ep_3', 'ten_A'), secret('sec_3', 'ep_3'));
      await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_3'], { at: T0 })]);
      const [c] = await store.queue.claimDue({
        now: T0 + MIN,
        limit: 1,
        leaseUntil: T0 + H,
        workerId: 'w',
        saturatedEndpoints: [],
      });
      await store.queue.recordAttempts(
        [
          record(
            attemptOf(c.delivery.id, 'ten_A', 'ep_3', 1, T0 + MIN, 'client_error', 410),
            'w',
            { status: 'failed', reason: 'HTTP 410' },
            { health: { rule: { pauseOnGone: true }, countsFailure: true, countsSuccess: true } },
          ),
        ],
        T0 + 2 * MIN,
      );
      const gone = await store.catalog.getEndpoint('ten_A', 'ep_3');
      assert.deepEqual([gone?.status, gone?.pauseReason, gone?.pausedAt], ['paused', 'gone', T0 + 2 * MIN]);
    },
  );

  withStore(
    'reactivateWithCatchUp: active again and one window replay of what failed or was skipped since the pause, by last change',
    async (store) => {
      await store.catalog.createTenant(tenant('ten_A'));
      await store.catalog.createEndpoint(endpoint('ep_1', 'ten_A'), secret('sec_1', 'ep_1'));
      // 1 fails for good before the pause; 2 is pending when the pause begins and ends endpoint_paused after it;
      // 3 arrives while paused (skipped); 4 succeeded before the pause.
      await store.events.acceptEvents([
        newEvent('ten_A', 1, ['ep_1'], { at: T0 }),
        newEvent('ten_A', 2, ['ep_1'], { at: T0 }),
        newEvent('ten_A', 4, ['ep_1'], { at: T0 }),
      ]);
      const claimed = await store.queue.claimDue({
        now: T0,
        limit: 3,
        leaseUntil: T0 + H,
        workerId: 'w',
        saturatedEndpoints: [],
      });
      const byId = new Map(claimed.map((c) => [c.delivery.id, c]));
      await store.queue.recordAttempts(
        [
          record(attemptOf('dlv_000001_0', 'ten_A', 'ep_1', 1, T0, 'client_error', 400), 'w', {
            status: 'failed',
            reason: 'HTTP 400',
          }),
          record(attemptOf('dlv_000002_0', 'ten_A', 'ep_1', 1, T0, 'delivery_failure'), 'w', {
            status: 'pending',
            nextAttemptAt: T0 + 5 * MIN,
            ladder: 'fast',
          }),
          record(attemptOf('dlv_000004_0', 'ten_A', 'ep_1', 1, T0, 'success'), 'w', { status: 'succeeded' }),
        ],
        T0 + 1000,
      );
      assert.equal(byId.size, 3);
      await store.catalog.updateEndpoint('ten_A', 'ep_1', { status: 'paused', pauseReason: 'manual' }, T0 + MIN);
      await store.events.acceptEvents([newEvent('ten_A', 3, ['ep_1'], { at: T0 + 2 * MIN, skipped: ['ep_1'] })]);
      const [late] = await store.queue.claimDue({
        now: T0 + 10 * MIN,
        limit: 1,
        leaseUntil: T0 + H,
        workerId: 'w',
        saturatedEndpoints: [],
      });
      assert.equal(late.delivery.id, 'dlv_000002_0');
      await store.queue.endDeliveries([late.delivery.id], 'w', 'failed', 'endpoint_paused', T0 + 10 * MIN);

      const at = T0 + H;
      const r = await store.replays.reactivateWithCatchUp('ten_A', 'ep_1', reactivate, catchUp('rpl_1', at), 100, at, {
        max: 20,
        since: T0 - H,
      });
      assert.equal(r.kind, 'scheduled');
      if (r.kind !== 'scheduled') return;
      assert.deepEqual([r.endpoint.status, r.endpoint.pausedAt], ['active', null]);
      assert.deepEqual(
        [r.replay.sinceMs, r.replay.untilMs, r.replay.selected, r.replay.includeSkipped],
        [T0 + MIN, at, 2, true],
      );
      const status = async (id: string) => (await store.reporting.getDelivery('ten_A', id))?.status;
      assert.deepEqual(
        [
          await status('dlv_000001_0'),
          await status('dlv_000002_0'),
          await status('dlv_000003_0'),
          await status('dlv_000004_0'),
        ],
        ['failed', 'pending', 'pending', 'succeeded'],
      );
      assert.deepEqual(
        { ...(await store.replays.getReplay('ten_A', 'rpl_1')), createdAt: 0 },
        { ...r.replay, createdAt: 0 },
      );
      assert.deepEqual(
        (await store.replays.reactivateWithCatchUp('ten_A', 'ep_1', reactivate, catchUp('rpl_2', at), 100, at)).kind,
        'not_paused',
      );
      assert.deepEqual(
        (await store.replays.reactivateWithCatchUp('ten_B', 'ep_1', reactivate, catchUp('rpl_3', at), 100, at)).kind,
        'not_found',
      );
    },
  );

  withStore(
    'reactivateWithCatchUp over the quota changes nothing; the limit takes the oldest; selecting nothing uses no quota',
    async (store) => {
      await store.catalog.createTenant(tenant('ten_A'));
      await store.catalog.createEndpoint(
        endpoint('ep_1', 'ten_A', { status: 'paused', pauseReason: 'manual' }),
        secret('sec_1', 'ep_1'),
      );
      await store.events.acceptEvents(
        [1, 2, 3].map((n) => newEvent('ten_A', n, ['ep_1'], { at: T0 + n * MIN, skipped: ['ep_1'] })),
      );
      const at = T0 + H;
      const over = await store.replays.reactivateWithCatchUp('ten_A', 'ep_1', reactivate, catchUp('rpl_1', at), 2, at, {
        max: 0,
        since: T0,
      });
      assert.deepEqual(over, { kind: 'quota_exceeded', used: 0 });
      const still = await store.catalog.getEndpoint('ten_A', 'ep_1');
      assert.deepEqual(
        [still?.status, still?.pausedAt, await store.replays.getReplay('ten_A', 'rpl_1')],
        ['paused', T0, null],
        'rolled back: still paused, no replay row',
      );
      const ok = await store.replays.reactivateWithCatchUp('ten_A', 'ep_1', reactivate, catchUp('rpl_2', at), 2, at, {
        max: 1,
        since: T0,
      });
      assert.equal(ok.kind === 'scheduled' && ok.replay.selected, 2);
      assert.deepEqual(
        [
          (await store.reporting.getDelivery('ten_A', 'dlv_000001_0'))?.status,
          (await store.reporting.getDelivery('ten_A', 'dlv_000003_0'))?.status,
        ],
        ['pending', 'skipped'],
        'the oldest two',
      );
      // Paused again with nothing new: the catch-up selects nothing and is answered even at the quota.
      await store.catalog.updateEndpoint('ten_A', 'ep_1', { status: 'paused', pauseReason: 'manual' }, at + MIN);
      const none = await store.replays.reactivateWithCatchUp(
        'ten_A',
        'ep_1',
        reactivate,
        catchUp('rpl_3', at + 2 * MIN),
        2,
        at + 2 * MIN,
        { max: 1, since: T0 },
      );
      assert.equal(none.kind === 'scheduled' && none.replay.selected, 0);
    },
  );
}
