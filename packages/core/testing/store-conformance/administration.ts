// Store conformance, administration: ping and settings, tenants, API keys, endpoints and secrets, notices, event types.
import assert from 'node:assert/strict';
import { attemptOf, DAY, endpoint, MIN, newEvent, record, secret, T0, tenant, type WithStore } from './fixtures.ts';

export function administrationConformance(withStore: WithStore): void {
  withStore('ping, settings', async (store) => {
    assert.equal(await store.ping(), true);
    assert.equal(await store.catalog.getSetting('admin'), null);
    await store.catalog.setSetting('admin', 'a');
    await store.catalog.setSetting('admin', 'b');
    assert.equal(await store.catalog.getSetting('admin'), 'b');
    await store.migrate(); // migrating again changes nothing
    assert.equal(await store.catalog.getSetting('admin'), 'b');
  });

  withStore('tenants: create, get, page, update, delete cascades', async (store) => {
    for (const id of ['ten_A', 'ten_B', 'ten_C']) await store.catalog.createTenant(tenant(id));
    assert.deepEqual(await store.catalog.getTenant('ten_B'), tenant('ten_B'));
    assert.equal(await store.catalog.getTenant('ten_X'), null);
    const p1 = await store.catalog.listTenants(null, 2);
    assert.deepEqual(
      p1.items.map((t) => t.id),
      ['ten_A', 'ten_B'],
    );
    const p2 = await store.catalog.listTenants(p1.nextCursor, 2);
    assert.deepEqual(
      p2.items.map((t) => t.id),
      ['ten_C'],
    );
    assert.equal(p2.nextCursor, null);
    const u = await store.catalog.updateTenant(
      'ten_A',
      { name: 'Renamed', ownerEmails: ['x@y.test'], notifyEmail: false },
      T0 + 5,
    );
    assert.equal(u?.name, 'Renamed');
    const back = await store.catalog.getTenant('ten_A');
    assert.deepEqual(
      [back?.name, back?.ownerEmails, back?.notifyEmail, back?.updatedAt, back?.createdAt],
      ['Renamed', ['x@y.test'], false, T0 + 5, T0],
    );
    assert.equal(await store.catalog.updateTenant('ten_X', { name: 'n' }, T0), null);
    await store.catalog.createEndpoint(endpoint('ep_1', 'ten_C'), secret('sec_1', 'ep_1'));
    assert.equal(await store.catalog.deleteTenant('ten_C'), true);
    assert.equal(await store.catalog.deleteTenant('ten_C'), false);
    assert.equal(await store.catalog.getEndpoint('ten_C', 'ep_1'), null);
  });

  withStore(
    'tenants: environment fixed at creation, live by default, listed by environment (docs/rules.md#environments)',
    async (store) => {
      const { environment: _, ...unnamed } = tenant('ten_A');
      await store.catalog.createTenant(unnamed);
      await store.catalog.createTenant(tenant('ten_B', T0, 'test'));
      await store.catalog.createTenant(tenant('ten_C', T0, 'live'));
      await store.catalog.createTenant(tenant('ten_D', T0, 'test'));
      assert.equal(
        (await store.catalog.getTenant('ten_A'))?.environment,
        'live',
        'a tenant created without one is live',
      );
      assert.deepEqual(await store.catalog.getTenant('ten_B'), tenant('ten_B', T0, 'test'));
      await assert.rejects(
        store.catalog.createTenant({ ...tenant('ten_E'), environment: 'staging' as never }),
        'the column admits only test and live',
      );
      const tests = await store.catalog.listTenants(null, 1, { environment: 'test' });
      assert.deepEqual(
        tests.items.map((t) => [t.id, t.environment]),
        [['ten_B', 'test']],
      );
      assert.deepEqual(
        (await store.catalog.listTenants(tests.nextCursor, 10, { environment: 'test' })).items.map((t) => t.id),
        ['ten_D'],
      );
      assert.deepEqual(
        (await store.catalog.listTenants(null, 10, { environment: 'live' })).items.map((t) => t.id),
        ['ten_A', 'ten_C'],
      );
      assert.deepEqual(
        (await store.catalog.listTenants(null, 10)).items.map((t) => t.id),
        ['ten_A', 'ten_B', 'ten_C', 'ten_D'],
      );
      // Whatever object a caller patches with, the environment stays.
      const u = await store.catalog.updateTenant('ten_B', { name: 'Renamed', environment: 'live' } as never, T0 + 1);
      assert.deepEqual(
        [u?.name, u?.environment, (await store.catalog.getTenant('ten_B'))?.environment],
        ['Renamed', 'test', 'test'],
      );
    },
  );

  withStore(
    "environment: a claim, its attempts and the tenant's notices name the tenant's environment",
    async (store) => {
      await store.catalog.createTenant(tenant('ten_T', T0, 'test'));
      await store.catalog.createTenant(tenant('ten_L', T0, 'live'));
      await store.catalog.createEndpoint(endpoint('ep_t', 'ten_T'), secret('sec_t', 'ep_t'));
      await store.catalog.createEndpoint(endpoint('ep_l', 'ten_L'), secret('sec_l', 'ep_l'));
      await store.events.acceptEvents([newEvent('ten_T', 1, ['ep_t']), newEvent('ten_L', 2, ['ep_l'])]);
      const claimed = await store.queue.claimDue({
        now: T0,
        limit: 10,
        leaseUntil: T0 + MIN,
        workerId: 'w1',
        saturatedEndpoints: [],
      });
      assert.deepEqual(claimed.map((c) => [c.delivery.id, c.environment]).sort(), [
        ['dlv_000001_0', 'test'],
        ['dlv_000002_0', 'live'],
      ]);
      await store.queue.recordAttempts(
        [
          record({ ...attemptOf('dlv_000001_0', 'ten_T', 'ep_t', 1, T0 + 1, 'success'), environment: 'test' }, 'w1', {
            status: 'succeeded',
          }),
          record(attemptOf('dlv_000002_0', 'ten_L', 'ep_l', 1, T0 + 1, 'success'), 'w1', { status: 'succeeded' }),
        ],
        T0 + 2,
      );
      assert.deepEqual(
        (await store.reporting.listAttempts('dlv_000001_0')).map((a) => a.environment),
        ['test'],
      );
      assert.deepEqual(
        (await store.reporting.listAttempts('dlv_000002_0')).map((a) => a.environment),
        ['live'],
      );
      await store.outbox.addNotice({
        id: 'ntc_1',
        tenantId: 'ten_T',
        kind: 'endpoint.degraded',
        subjectId: 'ep_t',
        message: 'm',
        data: {},
        createdAt: T0,
      });
      await store.outbox.addNotice({
        id: 'ntc_2',
        tenantId: 'ten_L',
        kind: 'endpoint.degraded',
        subjectId: 'ep_l',
        message: 'm',
        data: {},
        createdAt: T0,
      });
      assert.deepEqual(
        (await store.outbox.listNotices('ten_T', null, 10)).items.map((n) => [n.id, n.environment]),
        [['ntc_1', 'test']],
      );
      assert.deepEqual(
        (await store.outbox.listNotices('ten_L', null, 10)).items.map((n) => [n.id, n.environment]),
        [['ntc_2', 'live']],
      );
    },
  );

  const apiKey = () => ({
    id: 'key_1',
    tenantId: 'ten_A',
    name: 'ci',
    prefix: 'hk_live_ab',
    hash: 'h1',
    createdAt: T0,
    lastUsedAt: null,
    revokedAt: null,
  });

  withStore('api keys: create, list, find by hash, revoke once', async (store) => {
    await store.catalog.createTenant(tenant('ten_A'));
    const key = apiKey();
    await store.catalog.createApiKey(key);
    await store.catalog.createApiKey({ ...key, id: 'key_2', hash: 'h2' });
    assert.deepEqual(await store.catalog.findApiKeyByHash('h1'), key);
    assert.equal(await store.catalog.findApiKeyByHash('nope'), null);
    assert.deepEqual(
      (await store.catalog.listApiKeys('ten_A')).map((k) => k.id),
      ['key_1', 'key_2'],
    );
    assert.equal(await store.catalog.revokeApiKey('ten_A', 'key_1', T0 + 1), true);
    assert.equal(await store.catalog.revokeApiKey('ten_A', 'key_1', T0 + 2), false);
    assert.equal(await store.catalog.revokeApiKey('ten_B', 'key_2', T0 + 2), false, 'another tenant cannot revoke it');
    assert.equal((await store.catalog.findApiKeyByHash('h1'))?.revokedAt, T0 + 1);
  });

  withStore('api keys: last use is recorded at most once per granularity, never on a revoked key', async (store) => {
    await store.catalog.createTenant(tenant('ten_A'));
    const key = apiKey();
    await store.catalog.createApiKey(key);
    await store.catalog.createApiKey({ ...key, id: 'key_2', hash: 'h2' });
    const lastUsed = async (hash: string) => (await store.catalog.findApiKeyByHash(hash))?.lastUsedAt;
    await store.catalog.touchApiKey('key_1', T0 + 10, MIN);
    assert.equal(await lastUsed('h1'), T0 + 10);
    assert.equal(await lastUsed('h2'), null, 'only that key');
    await store.catalog.touchApiKey('key_1', T0 + 10 + MIN - 1, MIN);
    assert.equal(await lastUsed('h1'), T0 + 10, 'within the granularity: unchanged');
    await store.catalog.touchApiKey('key_1', T0 + 10 + MIN, MIN);
    assert.equal(await lastUsed('h1'), T0 + 10 + MIN);
    await store.catalog.revokeApiKey('ten_A', 'key_2', T0 + 20);
    await store.catalog.touchApiKey('key_2', T0 + 30, MIN);
    assert.equal(await lastUsed('h2'), null, 'a revoked key is not touched');
  });

  withStore(
    'portal links: consumed once, never after expiry, concurrent uses let one win, expired ones purged',
    async (store) => {
      await store.catalog.createTenant(tenant('ten_A'));
      await store.catalog.createPortalLink({ hash: 'p1', tenantId: 'ten_A', createdAt: T0, expiresAt: T0 + MIN }, T0);
      await store.catalog.createPortalLink({ hash: 'p2', tenantId: 'ten_A', createdAt: T0, expiresAt: T0 + MIN }, T0);
      await store.catalog.createPortalLink({ hash: 'p3', tenantId: 'ten_A', createdAt: T0, expiresAt: T0 + MIN }, T0);
      assert.equal(await store.catalog.consumePortalLink('nope', T0 + 1), null);
      assert.equal(await store.catalog.consumePortalLink('p1', T0 + 1), 'ten_A');
      assert.equal(await store.catalog.consumePortalLink('p1', T0 + 2), null, 'used once');
      assert.equal(await store.catalog.consumePortalLink('p2', T0 + MIN), null, 'expired at expires_at');
      const both = await Promise.all([
        store.catalog.consumePortalLink('p3', T0 + 3),
        store.catalog.consumePortalLink('p3', T0 + 3),
      ]);
      assert.deepEqual(both.sort(), ['ten_A', null].sort(), 'of two concurrent uses one wins');
      // A later link's creation forgets the expired ones: p2 cannot come back even if its row were consulted.
      await store.catalog.createPortalLink(
        { hash: 'p4', tenantId: 'ten_A', createdAt: T0 + 2 * MIN, expiresAt: T0 + 3 * MIN },
        T0 + 2 * MIN,
      );
      assert.equal(await store.catalog.consumePortalLink('p4', T0 + 2 * MIN), 'ten_A');
      // Retention forgets links once expired, used or not.
      await store.catalog.createPortalLink(
        { hash: 'p5', tenantId: 'ten_A', createdAt: T0, expiresAt: T0 + 10 * MIN },
        T0,
      );
      assert.equal(
        await store.retention.purgePortalLinks(T0 + 10 * MIN),
        1,
        'p4 (used, expired at +3 min); p5 expires only now',
      );
      assert.equal(await store.retention.purgePortalLinks(T0 + 10 * MIN + 1), 1, 'p5, never used');
      assert.equal(await store.catalog.consumePortalLink('p5', T0 + MIN), null, 'a purged link is gone');
      assert.equal(await store.retention.purgePortalLinks(T0 + DAY), 0);
    },
  );

  withStore('endpoints: create, get, page, update with version, secrets and rotation, delete', async (store) => {
    await store.catalog.createTenant(tenant('ten_A'));
    await store.catalog.createTenant(tenant('ten_B'));
    for (const id of ['ep_1', 'ep_2', 'ep_3'])
      await store.catalog.createEndpoint(
        endpoint(id, 'ten_A', { eventTypes: ['a.*'], timeoutMs: 5000 }),
        secret(`sec_${id}`, id),
      );
    const got = await store.catalog.getEndpoint('ten_A', 'ep_1');
    assert.deepEqual(got, { ...endpoint('ep_1', 'ten_A', { eventTypes: ['a.*'], timeoutMs: 5000 }), version: 1 });
    assert.equal(await store.catalog.getEndpoint('ten_B', 'ep_1'), null, 'tenant-scoped');
    const p1 = await store.catalog.listEndpoints('ten_A', null, 2);
    assert.deepEqual(
      p1.items.map((e) => e.id),
      ['ep_1', 'ep_2'],
    );
    assert.deepEqual(
      (await store.catalog.listEndpoints('ten_A', p1.nextCursor, 2)).items.map((e) => e.id),
      ['ep_3'],
    );
    assert.deepEqual(
      (await store.catalog.listTenantEndpoints('ten_A')).map((e) => e.id),
      ['ep_1', 'ep_2', 'ep_3'],
    );

    await store.catalog.updateEndpoint('ten_A', 'ep_1', { status: 'paused', pauseReason: 'manual' }, T0 + 1);
    const degradedish = await store.catalog.updateEndpoint(
      'ten_A',
      'ep_2',
      { description: 'd', maxConcurrency: 3, scheme: 'standard', timeoutMs: null },
      T0 + 1,
    );
    assert.deepEqual(
      [
        degradedish?.description,
        degradedish?.maxConcurrency,
        degradedish?.scheme,
        degradedish?.timeoutMs,
        degradedish?.version,
      ],
      ['d', 3, 'standard', null, 2],
    );
    const paused = await store.catalog.getEndpoint('ten_A', 'ep_1');
    assert.deepEqual([paused?.status, paused?.pauseReason, paused?.version], ['paused', 'manual', 2]);
    const active = await store.catalog.updateEndpoint(
      'ten_A',
      'ep_1',
      { status: 'active', pauseReason: null, clearHealth: true },
      T0 + 2,
    );
    assert.deepEqual(
      [active?.status, active?.pauseReason, active?.failingSince, active?.version],
      ['active', null, null, 3],
    );
    assert.equal(await store.catalog.updateEndpoint('ten_B', 'ep_1', { description: 'x' }, T0), null);

    // docs/rules.md#signing-ed25519: the signing is stored at creation and no edit changes it.
    await store.catalog.createEndpoint(
      endpoint('ep_ed', 'ten_A', { scheme: 'standard', signing: 'ed25519' }),
      secret('sec_ed', 'ep_ed'),
    );
    assert.equal((await store.catalog.getEndpoint('ten_A', 'ep_ed'))?.signing, 'ed25519');
    const edited = await store.catalog.updateEndpoint(
      'ten_A',
      'ep_ed',
      { description: 'e', status: 'paused', pauseReason: 'manual' },
      T0 + 3,
    );
    assert.deepEqual(
      [edited?.signing, (await store.catalog.getEndpoint('ten_A', 'ep_ed'))?.signing],
      ['ed25519', 'ed25519'],
    );
    assert.equal(
      (await store.catalog.listEndpoints('ten_A', null, 10)).items.find((e) => e.id === 'ep_ed')?.signing,
      'ed25519',
    );
    assert.equal(await store.catalog.deleteEndpoint('ten_A', 'ep_ed'), true);

    assert.deepEqual(
      (await store.catalog.listSecrets('ep_1')).map((s) => [s.kid, s.expiresAt]),
      [['sec_ep_1', null]],
    );
    await store.catalog.rotateSecret('ep_1', secret('sec_new', 'ep_1', T0 + 10), T0 + DAY, T0 + 10);
    assert.deepEqual(
      (await store.catalog.listSecrets('ep_1')).map((s) => [s.kid, s.expiresAt]),
      [
        ['sec_ep_1', T0 + DAY],
        ['sec_new', null],
      ],
    );
    assert.equal(
      (await store.catalog.getEndpoint('ten_A', 'ep_1'))?.version,
      4,
      'rotation bumps the version workers cache on',
    );

    assert.equal(await store.catalog.deleteEndpoint('ten_B', 'ep_3'), false);
    assert.equal(await store.catalog.deleteEndpoint('ten_A', 'ep_3'), true);
    assert.equal(await store.catalog.getEndpoint('ten_A', 'ep_3'), null);
    assert.deepEqual(await store.catalog.listSecrets('ep_3'), []);
  });

  withStore('notices and event types', async (store) => {
    await store.catalog.createTenant(tenant('ten_A'));
    for (let i = 1; i <= 3; i++) {
      await store.outbox.addNotice({
        id: `ntc_${i}`,
        tenantId: 'ten_A',
        kind: 'endpoint.degraded',
        subjectId: 'ep_1',
        message: `m${i}`,
        data: { i },
        createdAt: T0 + i,
      });
    }
    const p1 = await store.outbox.listNotices('ten_A', null, 2);
    assert.deepEqual(
      p1.items.map((n) => n.id),
      ['ntc_3', 'ntc_2'],
      'newest first',
    );
    assert.deepEqual(p1.items[0].data, { i: 3 });
    assert.deepEqual(
      (await store.outbox.listNotices('ten_A', p1.nextCursor, 2)).items.map((n) => n.id),
      ['ntc_1'],
    );
    assert.deepEqual((await store.outbox.listNotices('ten_B', null, 10)).items, []);

    await store.catalog.putEventType({
      name: 'b.two',
      description: 'B',
      definition: { versions: { '1': {} } },
      updatedAt: T0,
    });
    await store.catalog.putEventType({ name: 'a.one', description: 'A', definition: { money: false }, updatedAt: T0 });
    await store.catalog.putEventType({
      name: 'a.one',
      description: 'A2',
      definition: { money: true },
      updatedAt: T0 + 1,
    });
    assert.deepEqual(await store.catalog.getEventType('a.one'), {
      name: 'a.one',
      description: 'A2',
      definition: { money: true },
      updatedAt: T0 + 1,
    });
    assert.equal(await store.catalog.getEventType('c'), null);
    assert.deepEqual(
      (await store.catalog.listEventTypes()).map((e) => e.name),
      ['a.one', 'b.two'],
    );
  });
}
