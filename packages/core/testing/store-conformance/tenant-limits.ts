// Store conformance, tenant limits (docs/rules.md#tenant-limits): admission in the accept transaction (rate bucket,
// daily count, payload cap), idempotent replays neither counted nor refused, usage rows, quota notices, endpoint cap.
import assert from 'node:assert/strict';
import type { TenantLimits } from '../../src/domain.ts';
import type { IngestLimitValues } from '../../src/pacing/tenant-admission.ts';
import type { AcceptResult, Store } from '../../src/store/store.ts';
import { DAY, endpoint, H, newEvent, S, secret, T0, tenant, type WithStore } from './fixtures.ts';

const NONE: IngestLimitValues = { eventsPerS: null, eventsPerDay: null, maxPayloadBytes: null };
const MIDNIGHT = T0 - (T0 % DAY) + DAY; // T0 is noon UTC

async function setup(store: Store, limits: Partial<TenantLimits> = {}): Promise<void> {
  await store.catalog.createTenant(tenant('ten_A'));
  await store.catalog.createEndpoint(endpoint('ep_1', 'ten_A'), secret('sec_1', 'ep_1'));
  const full = { eventsPerS: null, eventsPerDay: null, maxEndpoints: null, maxPayloadBytes: null, ...limits };
  await store.catalog.updateTenant('ten_A', { limits: full }, T0);
}

const kinds = (rs: AcceptResult[]) => rs.map((r) => (r.kind === 'limited' ? `limited:${r.limit}` : r.kind));

export function tenantLimitsConformance(withStore: WithStore): void {
  let seq = 0;
  /** Accepts events e-n for ten_A at `now` under the tenant's limits and `defaults`; the same n has the same body. */
  const accept = (store: Store, ns: number[], now: number, defaults: Partial<IngestLimitValues> = {}) =>
    store.events.acceptEvents(
      ns.map((n) =>
        newEvent('ten_A', 1000 + ++seq, ['ep_1'], {
          at: now,
          eventId: `e-${n}`,
          body: Buffer.from(JSON.stringify({ n })),
          hash: `h-${n}`,
        }),
      ),
      { now, defaults: { ...NONE, ...defaults } },
    );

  withStore('a rate limit admits one second of events at once; the rest are refused, stored nowhere', async (store) => {
    await setup(store, { eventsPerS: 2 });
    const rs = await accept(store, [1, 2, 3], T0);
    assert.deepEqual(kinds(rs), ['created', 'created', 'limited:rate']);
    const refused = rs[2];
    assert.ok(refused.kind === 'limited');
    // The next token is half a second away at 2 per second.
    assert.deepEqual([refused.max, refused.retryAfterMs, refused.eventId], [2, 500, 'e-3']);
    assert.equal(await store.events.getEvent('ten_A', 'e-3'), null);
    assert.equal((await store.catalog.getTenantUsage('ten_A', MIDNIGHT - DAY))?.events, 2);
    assert.deepEqual(kinds(await accept(store, [3], T0 + 499)), ['limited:rate']);
    assert.deepEqual(kinds(await accept(store, [3], T0 + 500)), ['created']);
    // The bucket is shared: a second later it holds a second's worth again, never more.
    assert.deepEqual(kinds(await accept(store, [4, 5, 6], T0 + 10 * S)), ['created', 'created', 'limited:rate']);
  });

  withStore(
    'the daily limit counts every new event once; a replay is neither counted nor refused; midnight resets it',
    async (store) => {
      await setup(store);
      const daily = { eventsPerDay: 3 }; // the configured default: the tenant has none of its own
      assert.deepEqual(kinds(await accept(store, [1, 2], T0, daily)), ['created', 'created']);
      // e-1 again (a replay) and e-3 twice in one batch: one new event.
      assert.deepEqual(kinds(await accept(store, [1, 3, 3], T0 + S, daily)), ['existing', 'created', 'existing']);
      assert.equal((await store.catalog.getTenantUsage('ten_A', MIDNIGHT - DAY))?.events, 3);
      const [over] = await accept(store, [4], T0 + 2 * S, daily);
      assert.ok(over.kind === 'limited' && over.limit === 'daily');
      assert.deepEqual([over.max, over.retryAfterMs], [3, MIDNIGHT - (T0 + 2 * S)]);
      assert.equal(await store.events.getEvent('ten_A', 'e-4'), null);
      // At the limit, an event already accepted still answers as accepted.
      assert.deepEqual(kinds(await accept(store, [2], T0 + 3 * S, daily)), ['existing']);
      assert.equal((await store.catalog.getTenantUsage('ten_A', MIDNIGHT - DAY))?.events, 3);
      // The tenant's own limit wins over the default.
      await store.catalog.updateTenant(
        'ten_A',
        { limits: { eventsPerS: null, eventsPerDay: 4, maxEndpoints: null, maxPayloadBytes: null } },
        T0,
      );
      assert.deepEqual(kinds(await accept(store, [4, 5], T0 + 4 * S, daily)), ['created', 'limited:daily']);
      // A new UTC day counts from zero.
      assert.deepEqual(kinds(await accept(store, [5], MIDNIGHT, daily)), ['created']);
      assert.equal((await store.catalog.getTenantUsage('ten_A', MIDNIGHT))?.events, 1);
      assert.equal((await store.catalog.getTenantUsage('ten_A', MIDNIGHT - DAY))?.events, 4);
    },
  );

  withStore('a payload over the cap is refused for good (no retry time); a smaller one passes', async (store) => {
    await setup(store, { maxPayloadBytes: 20 });
    const rs = await store.events.acceptEvents(
      [
        newEvent('ten_A', 1, ['ep_1'], { body: Buffer.alloc(21, 'x') }),
        newEvent('ten_A', 2, ['ep_1'], { body: Buffer.alloc(20, 'x') }),
      ],
      { now: T0, defaults: NONE },
    );
    assert.deepEqual(kinds(rs), ['limited:payload', 'created']);
    assert.ok(rs[0].kind === 'limited');
    assert.deepEqual([rs[0].max, rs[0].retryAfterMs], [20, 0]);
  });

  withStore('without limits every new event is still counted, by day and by minute', async (store) => {
    await setup(store);
    await accept(store, [1, 2], T0);
    await accept(store, [3], T0 + 61 * S);
    const u = await store.catalog.getTenantUsage('ten_A', MIDNIGHT - DAY);
    assert.deepEqual(
      [u?.events, u?.minuteAt, u?.minuteEvents, u?.prevMinuteEvents, u?.notifiedPercent],
      [3, T0 + 60 * S, 1, 2, 0],
    );
    // Accepting without limits (operational events, test sends) counts nothing.
    await store.events.acceptEvents([newEvent('ten_A', 9, ['ep_1'])]);
    assert.equal((await store.catalog.getTenantUsage('ten_A', MIDNIGHT - DAY))?.events, 3);
  });

  withStore('the daily quota is told once at 80 % and once at 100 %, again the next UTC day', async (store) => {
    await setup(store, { eventsPerDay: 5 });
    const told = async (now: number) =>
      (await store.outbox.claimOutbox(now + H, 100, now + 10 * DAY)).map((r) => [
        r.kind,
        r.data.percent,
        r.data.events_today,
      ]);
    await accept(store, [1, 2, 3], T0);
    assert.deepEqual(await told(T0), []);
    await accept(store, [4], T0 + S);
    assert.deepEqual(await told(T0 + S), [['quota.warning', 80, 4]]);
    await accept(store, [5, 6], T0 + 2 * S);
    assert.deepEqual(await told(T0 + 2 * S), [['quota.reached', 100, 5]]);
    await accept(store, [7], T0 + 3 * S);
    assert.deepEqual(await told(T0 + 3 * S), []);
    // The next day: 4 at once is 80 % again; a batch that jumps past 80 % to the limit gets only the 100 % notice.
    await accept(store, [8, 9, 10, 11], MIDNIGHT + S);
    assert.deepEqual(await told(MIDNIGHT + S), [['quota.warning', 80, 4]]);
    await accept(store, [12], MIDNIGHT + 2 * S);
    assert.deepEqual(await told(MIDNIGHT + 2 * S), [['quota.reached', 100, 5]]);
    const day2 = await store.catalog.getTenantUsage('ten_A', MIDNIGHT);
    assert.deepEqual([day2?.events, day2?.notifiedPercent], [5, 100]);
    // Retention forgets whole days that started before its cut, never the day it falls in.
    assert.equal(await store.retention.purgeTenantUsage(MIDNIGHT), 1);
    assert.equal(await store.catalog.getTenantUsage('ten_A', MIDNIGHT - DAY), null);
    assert.equal((await store.catalog.getTenantUsage('ten_A', MIDNIGHT))?.events, 5);
  });

  withStore('an endpoint cap is checked in the creating transaction', async (store) => {
    await store.catalog.createTenant(tenant('ten_A'));
    assert.equal(await store.catalog.createEndpoint(endpoint('ep_1', 'ten_A'), secret('sec_1', 'ep_1'), 2), true);
    assert.equal(await store.catalog.createEndpoint(endpoint('ep_2', 'ten_A'), secret('sec_2', 'ep_2'), 2), true);
    assert.equal(await store.catalog.createEndpoint(endpoint('ep_3', 'ten_A'), secret('sec_3', 'ep_3'), 2), false);
    assert.equal(await store.catalog.getEndpoint('ten_A', 'ep_3'), null);
    assert.equal(await store.catalog.countTenantEndpoints('ten_A'), 2);
    assert.equal(await store.catalog.createEndpoint(endpoint('ep_3', 'ten_A'), secret('sec_3', 'ep_3'), null), true);
  });

  withStore("a tenant's limits are stored, read back and cleared to null", async (store) => {
    await setup(store, { eventsPerS: 0.5, eventsPerDay: 1000, maxEndpoints: 3, maxPayloadBytes: 4096 });
    assert.deepEqual((await store.catalog.getTenant('ten_A'))?.limits, {
      eventsPerS: 0.5,
      eventsPerDay: 1000,
      maxEndpoints: 3,
      maxPayloadBytes: 4096,
    });
    await store.catalog.updateTenant('ten_A', { name: 'renamed' }, T0);
    assert.equal((await store.catalog.getTenant('ten_A'))?.limits.eventsPerDay, 1000);
    await setup2(store);
    assert.deepEqual((await store.catalog.getTenant('ten_A'))?.limits, {
      eventsPerS: null,
      eventsPerDay: null,
      maxEndpoints: null,
      maxPayloadBytes: null,
    });
  });
}

async function setup2(store: Store): Promise<void> {
  await store.catalog.updateTenant(
    'ten_A',
    { limits: { eventsPerS: null, eventsPerDay: null, maxEndpoints: null, maxPayloadBytes: null } },
    T0,
  );
}
