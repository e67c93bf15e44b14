// Auth and tenant isolation over real HTTP: admin token, tenant API keys, 401/403/404 rules.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { silentLogger, VirtualClock } from '@hookline/core';
import { resolveConfig } from '../src/config.ts';
import { openRuntime } from '../src/runtime.ts';
import { ADMIN_TOKEN, startReceiver, startTestServer, type TestServer, until } from './server-harness.ts';

let t: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let a: string;
let b: string;
let keyA: string;
let keyB: string;
let epB: string;
let dlvB: string;

before(async () => {
  t = await startTestServer({ config: { policies: [] } });
  receiver = await startReceiver(() => 400);
  a = await t.tenant('A');
  b = await t.tenant('B');
  keyA = (await t.api('POST', `/v1/tenants/${a}/api-keys`, { body: { name: 'ci' } })).body.key;
  keyB = (await t.api('POST', `/v1/tenants/${b}/api-keys`, { body: { name: 'ci' } })).body.key;
  epB = (
    await t.api('POST', `/v1/tenants/${b}/endpoints`, { body: { url: receiver.url, policy: 'strict' }, token: keyB })
  ).body.id;
  const ev = await t.api('POST', `/v1/tenants/${b}/events`, { body: { type: 'order.created', data: {} }, token: keyB });
  dlvB = ev.body.deliveries[0].id;
  await until(
    () => t.api('GET', `/v1/tenants/${b}/deliveries/${dlvB}`, { token: keyB }),
    (r) => r.body.status === 'failed',
  );
});
after(async () => {
  await receiver.close();
  await t.close();
});

test('requests without or with a wrong token are 401 with a catalog error; without one it says how to send one', async () => {
  for (const token of [null, 'nope', 'hk_live_doesnotexist']) {
    const r = await t.api('GET', `/v1/tenants/${a}`, { token });
    assert.equal(r.status, 401);
    assert.equal(r.body.error.code, token === null ? 'credentials_missing' : 'unauthorized');
    if (token === null) assert.match(r.body.error.message, /Authorization: Bearer .*--token or HOOKLINE_TOKEN/);
    assert.equal(r.headers.get('www-authenticate'), 'Bearer');
    assert.equal(r.body.error.request_id, r.headers.get('x-request-id'));
  } // A header of another form than `Bearer <token>` (the token alone, Basic) says which form it must take.
  for (const authorization of [ADMIN_TOKEN, `Basic ${Buffer.from('a:b').toString('base64')}`, 'Bearer']) {
    const r = await t.api('GET', `/v1/tenants/${a}`, { token: null, headers: { authorization } });
    assert.deepEqual([r.status, r.body.error.code], [401, 'authorization_malformed'], authorization);
    assert.match(r.body.error.message, /must be 'Bearer <token>'/);
  }
});

test('api keys: shown once at creation, listed without the key, stored hashed', async () => {
  const created = await t.api('POST', `/v1/tenants/${a}/api-keys`, { body: { name: 'deploy' } });
  assert.equal(created.status, 201);
  assert.match(created.body.key, /^hk_live_[A-Za-z0-9_-]{32}$/);
  assert.ok(created.body.key.startsWith(created.body.prefix));
  const list = await t.api('GET', `/v1/tenants/${a}/api-keys`);
  assert.equal(list.status, 200);
  const listed = list.body.items.find((k: { id: string }) => k.id === created.body.id);
  assert.equal(listed.name, 'deploy');
  assert.equal(listed.key, undefined);
  assert.ok(!JSON.stringify(list.body).includes(created.body.key));
  const stored = await t.server.runtime.store.catalog.listApiKeys(a);
  assert.ok(stored.every((k) => k.hash !== created.body.key && /^[0-9a-f]{64}$/.test(k.hash)));
  // The key works until revoked, then it is 401.
  assert.equal((await t.api('GET', `/v1/tenants/${a}`, { token: created.body.key })).status, 200);
  assert.equal((await t.api('DELETE', `/v1/tenants/${a}/api-keys/${created.body.id}`)).status, 204);
  assert.equal((await t.api('GET', `/v1/tenants/${a}`, { token: created.body.key })).status, 401);
  const again = await t.api('DELETE', `/v1/tenants/${a}/api-keys/${created.body.id}`);
  assert.equal(again.status, 404);
  assert.equal(again.body.error.code, 'api_key_not_found');
});

test('a tenant key reaches its own tenant', async () => {
  assert.equal((await t.api('GET', `/v1/tenants/${b}`, { token: keyB })).status, 200);
  assert.equal((await t.api('GET', `/v1/tenants/${b}/endpoints/${epB}`, { token: keyB })).status, 200);
  assert.equal((await t.api('GET', `/v1/tenants/${b}/deliveries/${dlvB}`, { token: keyB })).status, 200);
});

test("tenant A's key on tenant B's tenant, endpoint, delivery, replay → 404, never data", async () => {
  const paths: Array<[string, string, unknown?]> = [
    ['GET', `/v1/tenants/${b}`],
    ['PATCH', `/v1/tenants/${b}`, { name: 'stolen' }],
    ['DELETE', `/v1/tenants/${b}`],
    ['GET', `/v1/tenants/${b}/endpoints`],
    ['GET', `/v1/tenants/${b}/endpoints/${epB}`],
    ['PATCH', `/v1/tenants/${b}/endpoints/${epB}`, { description: 'x' }],
    ['GET', `/v1/tenants/${b}/endpoints/${epB}/secret`],
    ['POST', `/v1/tenants/${b}/endpoints/${epB}/test`],
    ['GET', `/v1/tenants/${b}/deliveries`],
    ['GET', `/v1/tenants/${b}/deliveries/${dlvB}`],
    ['POST', `/v1/tenants/${b}/deliveries/${dlvB}/replay`],
    ['POST', `/v1/tenants/${b}/endpoints/${epB}/replays`, {}],
    ['POST', `/v1/tenants/${b}/events`, { type: 'x', data: {} }],
    ['GET', `/v1/tenants/${b}/api-keys`],
    ['GET', `/v1/tenants/${b}/notices`],
    ['GET', `/v1/tenants/${b}/breaker`],
  ];
  for (const [method, path, body] of paths) {
    const r = await t.api(method, path, { token: keyA, body });
    assert.equal(r.status, 404, `${method} ${path}`);
    assert.equal(r.body.error.code, 'tenant_not_found', `${method} ${path}`);
    assert.ok(!JSON.stringify(r.body).includes(epB));
  }
  // Same answer as a tenant that does not exist.
  const ghost = await t.api('GET', '/v1/tenants/ten_01JZZZZZZZZZZZZZZZZZZZZZZZ', { token: keyA });
  assert.deepEqual({ s: ghost.status, c: ghost.body.error.code }, { s: 404, c: 'tenant_not_found' });
  // B's ids under A's own tenant path: not found either (lookups are scoped by tenant).
  assert.equal(
    (await t.api('GET', `/v1/tenants/${a}/endpoints/${epB}`, { token: keyA })).body.error.code,
    'endpoint_not_found',
  );
  assert.equal(
    (await t.api('GET', `/v1/tenants/${a}/deliveries/${dlvB}`, { token: keyA })).body.error.code,
    'delivery_not_found',
  );
  assert.equal(
    (await t.api('POST', `/v1/tenants/${a}/deliveries/${dlvB}/replay`, { token: keyA })).body.error.code,
    'delivery_not_found',
  );
  assert.equal(
    (await t.api('POST', `/v1/tenants/${a}/endpoints/${epB}/replays`, { token: keyA, body: {} })).body.error.code,
    'endpoint_not_found',
  );
  const replay = await t.api('POST', `/v1/tenants/${b}/deliveries/${dlvB}/replay`, { token: keyB });
  assert.equal(replay.status, 202);
  assert.equal(
    (await t.api('GET', `/v1/tenants/${a}/replays/${replay.body.replay_id}`, { token: keyA })).body.error.code,
    'replay_not_found',
  );
  assert.equal((await t.api('GET', `/v1/tenants/${b}/replays/${replay.body.replay_id}`, { token: keyA })).status, 404);
  assert.equal((await t.api('GET', `/v1/tenants/${b}/replays/${replay.body.replay_id}`, { token: keyB })).status, 200);
});

test('tenant keys cannot create tenants, list tenants, delete tenants or define event types (403)', async () => {
  for (const [method, path, body] of [
    ['POST', '/v1/tenants', { name: 'x' }],
    ['GET', '/v1/tenants', undefined],
    ['DELETE', `/v1/tenants/${a}`, undefined],
    ['PUT', '/v1/event-types/order.created', { versions: { '1': { schema: {} } } }],
  ] as const) {
    const r = await t.api(method, path, { token: keyA, body });
    assert.equal(r.status, 403, `${method} ${path}`);
    assert.equal(r.body.error.code, 'forbidden');
  }
  // Reading event types is allowed.
  assert.equal((await t.api('GET', '/v1/event-types', { token: keyA })).status, 200);
});

test('first start without an admin token generates one, stores only its hash, returns it once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-admin-'));
  try {
    const config = resolveConfig({ env: {}, argv: { db: join(dir, 'h.db'), dataDir: join(dir, 'data') } });
    const first = await openRuntime(config, { logger: silentLogger });
    const token = first.adminTokenPlaintext;
    assert.ok(token && token.length > 40);
    const stored = await first.store.catalog.getSetting('admin_token_sha256');
    assert.ok(stored && stored !== token && /^[0-9a-f]{64}$/.test(stored));
    assert.equal(statSync(join(dir, 'data', 'master.key')).mode & 0o777, 0o600);
    await first.close();
    const second = await openRuntime(config, { logger: silentLogger });
    assert.equal(second.adminTokenPlaintext, undefined);
    assert.equal(second.adminTokenHash.toString('hex'), stored);
    await second.close();
    // A different master key than the one the database was created with is refused at start.
    const wrong = resolveConfig({
      env: { HOOKLINE_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') },
      argv: { db: join(dir, 'h.db'), dataDir: join(dir, 'data') },
    });
    await assert.rejects(openRuntime(wrong, { logger: silentLogger }), /masterKey/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a key records its last use, to the minute: listed as last_used_at, written at most once a minute', async () => {
  const clock = new VirtualClock(Date.parse('2026-03-02T10:00:00Z'));
  const s = await startTestServer({ clock });
  try {
    const ten = await s.tenant('Usage');
    const made = await s.api('POST', `/v1/tenants/${ten}/api-keys`, { body: { name: 'backend' } });
    const lastUsed = async () =>
      (
        (await s.api('GET', `/v1/tenants/${ten}/api-keys`)).body.items as Array<{ id: string; last_used_at: string }>
      ).find((k) => k.id === made.body.id)?.last_used_at ?? null;
    assert.equal(await lastUsed(), null, 'never used yet');
    assert.equal((await s.api('GET', `/v1/tenants/${ten}/endpoints`, { token: made.body.key })).status, 200);
    await until(lastUsed, (v) => v === '2026-03-02T10:00:00.000Z');
    clock.advance(30_000);
    assert.equal((await s.api('GET', `/v1/tenants/${ten}/endpoints`, { token: made.body.key })).status, 200);
    // Within the minute the value stays (the store skips the row; KeyUsage does not even ask: key-usage.test.ts).
    assert.equal(await lastUsed(), '2026-03-02T10:00:00.000Z');
    clock.advance(31_000);
    assert.equal((await s.api('GET', `/v1/tenants/${ten}/endpoints`, { token: made.body.key })).status, 200);
    await until(lastUsed, (v) => v === '2026-03-02T10:01:01.000Z');
  } finally {
    await s.close();
  }
});

test('GET /v1/whoami names the admin, or a tenant key with its tenant; no credentials is 401', async () => {
  assert.deepEqual((await t.api('GET', '/v1/whoami')).body, {
    kind: 'admin',
    tenant_id: null,
    api_key_id: null,
    environment: null,
  });
  const me = await t.api('GET', '/v1/whoami', { token: keyA });
  assert.equal(me.status, 200);
  assert.deepEqual([me.body.kind, me.body.tenant_id, me.body.environment], ['tenant', a, 'live']);
  assert.match(me.body.api_key_id, /^key_/);
  assert.equal((await t.api('GET', '/v1/whoami', { token: keyB })).body.tenant_id, b);
  const none = await t.api('GET', '/v1/whoami', { token: null });
  assert.deepEqual([none.status, none.body.error.code], [401, 'credentials_missing']);
});
