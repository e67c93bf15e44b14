// Store conformance, the compat part (migration 026, the Svix-compatible API): uids unique per scope, metadata and
// channels, message labels and the newest-first message list, resend deliveries under a single replay, and
// idempotency records (claim, wait, answer, release, expiry, purge).
import assert from 'node:assert/strict';
import { isUniqueViolation } from '../../src/store/storage-fault.ts';
import type { ReplayRow } from '../../src/store/store.ts';
import { endpoint, H, MIN, newEvent, secret, T0, tenant, type WithStore } from './fixtures.ts';

export function compatConformance(withStore: WithStore): void {
  withStore('tenants: a uid is unique over tenants, found by uid, moved and cleared with the labels', async (store) => {
    await store.catalog.createTenant({
      ...tenant('ten_A'),
      uid: 'acme',
      metadata: { plan: 'pro' },
      payloadFormat: 'raw',
    });
    const a = await store.svix.findTenantByUid('acme');
    assert.deepEqual([a?.id, a?.metadata, a?.payloadFormat, a?.appRateLimit], ['ten_A', { plan: 'pro' }, 'raw', null]);
    await assert.rejects(store.catalog.createTenant({ ...tenant('ten_B'), uid: 'acme' }), isUniqueViolation);
    await store.catalog.createTenant(tenant('ten_B'));
    assert.equal((await store.catalog.getTenant('ten_B'))?.payloadFormat, 'envelope');
    await assert.rejects(
      store.svix.setTenantLabels(
        'ten_B',
        { uid: 'acme', metadata: {}, payloadFormat: 'envelope', appRateLimit: null },
        T0,
      ),
      isUniqueViolation,
    );
    const labels = { uid: 'acme-2', metadata: { a: '1' }, payloadFormat: 'raw' as const, appRateLimit: 50 };
    assert.equal(await store.svix.setTenantLabels('ten_A', labels, T0 + MIN), true);
    assert.equal(await store.svix.findTenantByUid('acme'), null);
    const moved = await store.catalog.getTenant('ten_A');
    assert.deepEqual(
      [moved?.uid, moved?.metadata, moved?.appRateLimit, moved?.updatedAt],
      ['acme-2', { a: '1' }, 50, T0 + MIN],
    );
    assert.equal(await store.svix.setTenantLabels('ten_X', labels, T0), false);
    // Tenants without a uid never collide.
    await store.catalog.createTenant(tenant('ten_C'));
    // Newest first (Svix's order=descending), paged by the last id.
    const newest = await store.catalog.listTenants(null, 2, { newestFirst: true });
    assert.deepEqual([newest.items.map((t) => t.id), newest.nextCursor], [['ten_C', 'ten_B'], 'ten_B']);
    assert.deepEqual(
      (await store.catalog.listTenants('ten_B', 2, { newestFirst: true })).items.map((t) => t.id),
      ['ten_A'],
    );
    assert.deepEqual(
      (await store.catalog.listTenants(null, 5, { newestFirst: true, environment: 'test' })).items.map((t) => t.id),
      [],
    );
  });

  withStore(
    'endpoints: a uid is unique within a tenant; labels move the version; channels reach the fan-out list',
    async (store) => {
      await store.catalog.createTenant(tenant('ten_A'));
      await store.catalog.createTenant(tenant('ten_B'));
      await store.catalog.createEndpoint(
        endpoint('ep_1', 'ten_A', { uid: 'main', channels: ['eu'], metadata: { k: 'v' } }),
        secret('s1', 'ep_1'),
      );
      await assert.rejects(
        store.catalog.createEndpoint(endpoint('ep_2', 'ten_A', { uid: 'main' }), secret('s2', 'ep_2')),
        isUniqueViolation,
      );
      await store.catalog.createEndpoint(endpoint('ep_3', 'ten_B', { uid: 'main' }), secret('s3', 'ep_3'));
      assert.equal((await store.svix.findEndpointByUid('ten_A', 'main'))?.id, 'ep_1');
      assert.equal((await store.svix.findEndpointByUid('ten_B', 'main'))?.id, 'ep_3');
      const [listed] = await store.catalog.listTenantEndpoints('ten_A');
      assert.deepEqual([listed.channels, listed.metadata], [['eu'], { k: 'v' }]);
      const before = (await store.catalog.getEndpoint('ten_A', 'ep_1'))!.version;
      assert.equal(
        await store.svix.setEndpointLabels(
          'ten_A',
          'ep_1',
          { uid: null, metadata: {}, channels: ['eu', 'us'] },
          T0 + H,
        ),
        true,
      );
      const after = await store.catalog.getEndpoint('ten_A', 'ep_1');
      assert.deepEqual([after?.uid, after?.metadata, after?.channels], [null, {}, ['eu', 'us']]);
      assert.equal(after?.version, before + 1);
      assert.equal(
        await store.svix.setEndpointLabels('ten_B', 'ep_1', { uid: null, metadata: {}, channels: null }, T0),
        false,
      );
    },
  );

  withStore(
    'messages: labels beside the event, by Hookline id, listed newest first by type, channel and time',
    async (store) => {
      await store.catalog.createTenant(tenant('ten_A'));
      await store.catalog.createEndpoint(endpoint('ep_1', 'ten_A'), secret('s1', 'ep_1'));
      for (let n = 1; n <= 4; n++) {
        const ne = newEvent('ten_A', n, ['ep_1'], { at: T0 + n * MIN });
        if (n % 2 === 0) ne.event.type = 'other.type';
        await store.events.acceptEvents([ne]);
        await store.svix.putMessageLabels(ne.event.id, 'ten_A', {
          channels: n <= 2 ? ['eu'] : ['us'],
          tags: n === 1 ? ['first'] : null,
        });
      }
      // The first labels win.
      await store.svix.putMessageLabels('evt_000001', 'ten_A', { channels: ['zz'], tags: null });
      assert.deepEqual(await store.svix.getMessageLabels('evt_000001'), { channels: ['eu'], tags: ['first'] });
      assert.deepEqual(await store.svix.getMessageLabels('evt_none'), { channels: null, tags: null });
      const got = await store.svix.getEventByPk('ten_A', 'evt_000002');
      assert.deepEqual([got?.event.eventId, got?.deliveries.length], ['e-2', 1]);
      assert.equal(await store.svix.getEventByPk('ten_B', 'evt_000002'), null);

      const ids = async (f: Parameters<typeof store.svix.listMessages>[1], cursor: string | null = null, limit = 10) =>
        (await store.svix.listMessages('ten_A', f, cursor, limit)).items.map((m) => m.id);
      assert.deepEqual(await ids({}), ['evt_000004', 'evt_000003', 'evt_000002', 'evt_000001']);
      assert.deepEqual(await ids({ eventTypes: ['other.type'] }), ['evt_000004', 'evt_000002']);
      assert.deepEqual(await ids({ channel: 'eu' }), ['evt_000002', 'evt_000001']);
      assert.deepEqual(await ids({ since: T0 + 2 * MIN, until: T0 + 4 * MIN }), ['evt_000003', 'evt_000002']);
      const first = await store.svix.listMessages('ten_A', {}, null, 3);
      assert.equal(first.nextCursor, 'evt_000002');
      assert.deepEqual(await ids({}, first.nextCursor), ['evt_000001']);
      assert.deepEqual(first.items[2].channels, ['eu']);
    },
  );

  withStore(
    'resend: one more pending delivery of the event under its single replay; nothing for an unknown event',
    async (store) => {
      await store.catalog.createTenant(tenant('ten_A'));
      await store.catalog.createEndpoint(endpoint('ep_1', 'ten_A'), secret('s1', 'ep_1'));
      await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1'])]);
      const replay: ReplayRow = {
        id: 'rpl_1',
        tenantId: 'ten_A',
        endpointId: 'ep_1',
        kind: 'single',
        sinceMs: null,
        untilMs: null,
        includeSkipped: false,
        selected: 1,
        attempted: 0,
        succeeded: 0,
        failed: 0,
        createdAt: T0 + MIN,
      };
      assert.equal(await store.svix.addDelivery(replay, 'evt_000001', 'dlv_again', T0 + MIN), true);
      const d = await store.reporting.getDelivery('ten_A', 'dlv_again');
      assert.deepEqual([d?.status, d?.nextAttemptAt, d?.eventPk], ['pending', T0 + MIN, 'evt_000001']);
      assert.equal((await store.replays.getReplay('ten_A', 'rpl_1'))?.selected, 1);
      assert.equal((await store.svix.getEventByPk('ten_A', 'evt_000001'))?.deliveries.length, 2);
      assert.equal(await store.svix.addDelivery({ ...replay, id: 'rpl_2' }, 'evt_missing', 'dlv_x', T0), false);
      assert.equal(await store.replays.getReplay('ten_A', 'rpl_2'), null);
    },
  );

  withStore(
    'idempotency keys: claimed once, held until answered, released, expired after their time, purged',
    async (store) => {
      const ttl = 12 * H;
      assert.deepEqual(await store.svix.claimIdempotencyKey('s', 'k', 'h1', T0, ttl, 2 * MIN), { kind: 'claimed' });
      const held = await store.svix.claimIdempotencyKey('s', 'k', 'h1', T0 + 1, ttl, 2 * MIN);
      assert.equal(held.kind, 'held');
      assert.deepEqual(held.kind === 'held' && [held.record.status, held.record.requestHash], [null, 'h1']);
      // Another scope is another key.
      assert.deepEqual(await store.svix.claimIdempotencyKey('s2', 'k', 'h9', T0, ttl, 2 * MIN), { kind: 'claimed' });
      await store.svix.finishIdempotencyKey('s', 'k', 201, '{"id":1}');
      // An answer is kept once: a later finish does not replace it.
      await store.svix.finishIdempotencyKey('s', 'k', 500, 'x');
      assert.deepEqual(await store.svix.getIdempotencyKey('s', 'k'), {
        requestHash: 'h1',
        status: 201,
        body: '{"id":1}',
        createdAt: T0,
        expiresAt: T0 + ttl,
      });
      // Past its time the key is free again.
      assert.deepEqual(await store.svix.claimIdempotencyKey('s', 'k', 'h2', T0 + ttl, ttl, 2 * MIN), {
        kind: 'claimed',
      });
      assert.equal((await store.svix.getIdempotencyKey('s', 'k'))?.requestHash, 'h2');
      await store.svix.dropIdempotencyKey('s', 'k');
      assert.equal(await store.svix.getIdempotencyKey('s', 'k'), null);
      // A claim left unanswered past the pending time (its process died) is free again; an answered one is not.
      assert.deepEqual(await store.svix.claimIdempotencyKey('s', 'p', 'h', T0, ttl, 2 * MIN), { kind: 'claimed' });
      assert.equal((await store.svix.claimIdempotencyKey('s', 'p', 'h', T0 + 2 * MIN - 1, ttl, 2 * MIN)).kind, 'held');
      assert.deepEqual(await store.svix.claimIdempotencyKey('s', 'p', 'h', T0 + 2 * MIN, ttl, 2 * MIN), {
        kind: 'claimed',
      });
      await store.svix.finishIdempotencyKey('s', 'p', 200, '{}');
      assert.equal((await store.svix.claimIdempotencyKey('s', 'p', 'h', T0 + H, ttl, 2 * MIN)).kind, 'held');
      await store.svix.dropIdempotencyKey('s', 'p');
      assert.equal(await store.retention.purgeIdempotencyKeys(T0 + ttl), 1);
      assert.equal(await store.svix.getIdempotencyKey('s2', 'k'), null);
    },
  );
}
