// Svix messages over HTTP (docs/svix-compatibility.md): idempotency keys are scoped per caller and bound to the whole
// request (method, path with query, body), and a message's labels (channels, tags) come back and select it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type ApiResponse, startTestServer, type TestServer } from './server-harness.ts';

let t: TestServer;

before(async () => {
  t = await startTestServer();
});
after(async () => {
  await t.close();
});

/** A tenant (a Svix application) and one API key of its own. */
async function app(name: string): Promise<{ id: string; key: string }> {
  const id = await t.tenant(name);
  const key = (await t.api('POST', `/v1/tenants/${id}/api-keys`, { body: { name: 'svix' } })).body.key as string;
  return { id, key };
}

/** POST a message; `token` null: the admin's. */
function send(appId: string, body: unknown, o: { key?: string; token?: string; query?: string } = {}) {
  return t.api('POST', `/api/v1/app/${appId}/msg${o.query ?? ''}`, {
    body,
    ...(o.token ? { token: o.token } : {}),
    ...(o.key ? { headers: { 'idempotency-key': o.key } } : {}),
  });
}

const replayed = (r: ApiResponse) => r.headers.get('idempotent-replayed');

async function messageIds(appId: string, query = ''): Promise<string[]> {
  const r = await t.api('GET', `/api/v1/app/${appId}/msg${query}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.data.map((m: { id: string }) => m.id);
}

test("one caller's idempotency key never answers, nor blocks, another caller's request", async () => {
  const a = await app('Svix A');
  const b = await app('Svix B');
  const msg = { eventType: 'order.created', payload: { n: 1 } };
  const first = await send(a.id, msg, { key: 'shared-key', token: a.key });
  assert.equal(first.status, 202, JSON.stringify(first.body));
  assert.equal(replayed(first), null);
  const repeat = await send(a.id, msg, { key: 'shared-key', token: a.key });
  assert.deepEqual([repeat.status, repeat.body.id, replayed(repeat)], [202, first.body.id, 'true']);

  // Tenant B, the same key on its own application: a message of its own, not 409 for A's key.
  const other = await send(b.id, msg, { key: 'shared-key', token: b.key });
  assert.equal(other.status, 202, JSON.stringify(other.body));
  assert.equal(replayed(other), null);
  assert.notEqual(other.body.id, first.body.id);
  // The admin, the very same request as A's (path, body, key): a caller of its own, so it runs anew.
  const admin = await send(a.id, msg, { key: 'shared-key' });
  assert.equal(admin.status, 202, JSON.stringify(admin.body));
  assert.equal(replayed(admin), null);
  assert.notEqual(admin.body.id, first.body.id);
  assert.deepEqual((await messageIds(a.id)).sort(), [first.body.id, admin.body.id].sort());
  assert.deepEqual(await messageIds(b.id), [other.body.id]);
  // And each caller's own repeat still answers its own first answer.
  const againB = await send(b.id, msg, { key: 'shared-key', token: b.key });
  assert.deepEqual([againB.body.id, replayed(againB)], [other.body.id, 'true']);
});

test('the same key with another body or query is 409 idempotency_key_reused: the second message is never lost silently', async () => {
  const a = await app('Svix body');
  const first = await send(a.id, { eventType: 'order.created', payload: { n: 1 } }, { key: 'k-body' });
  assert.equal(first.status, 202, JSON.stringify(first.body));
  for (const [body, query] of [
    [{ eventType: 'order.created', payload: { n: 2 } }, ''],
    [{ eventType: 'order.updated', payload: { n: 1 } }, ''],
    [{ eventType: 'order.created', payload: { n: 1 } }, '?with_content=false'],
  ] as const) {
    const r = await send(a.id, body, { key: 'k-body', query });
    assert.equal(r.status, 409, `${JSON.stringify(body)}${query}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.code, 'idempotency_key_reused');
    assert.match(r.body.detail, /k-body/);
  }
  assert.deepEqual(await messageIds(a.id), [first.body.id], 'only the first message was accepted');
  // The first request itself still answers its first answer.
  const same = await send(a.id, { eventType: 'order.created', payload: { n: 1 } }, { key: 'k-body' });
  assert.deepEqual([same.status, same.body.id, replayed(same)], [202, first.body.id, 'true']);
});

test("a message's channels and tags come back on create, get and list, and channels select it", async () => {
  const a = await app('Svix labels');
  const eu = await send(a.id, { eventType: 'order.created', payload: { n: 1 }, channels: ['eu'], tags: ['vip'] });
  const us = await send(a.id, { eventType: 'order.created', payload: { n: 2 }, channels: ['us', 'all'] });
  const none = await send(a.id, { eventType: 'order.created', payload: { n: 3 } });
  for (const r of [eu, us, none]) assert.equal(r.status, 202, JSON.stringify(r.body));
  assert.deepEqual([eu.body.channels, eu.body.tags], [['eu'], ['vip']]);
  const got = await t.api('GET', `/api/v1/app/${a.id}/msg/${eu.body.id}`);
  assert.deepEqual([got.body.channels, got.body.tags], [['eu'], ['vip']]);
  const gotUs = await t.api('GET', `/api/v1/app/${a.id}/msg/${us.body.id}`);
  assert.deepEqual(gotUs.body.channels, ['us', 'all']);
  const listed = (await t.api('GET', `/api/v1/app/${a.id}/msg`)).body.data as Array<Record<string, unknown>>;
  assert.deepEqual(
    Object.fromEntries(listed.map((m) => [m.id, [m.channels, m.tags]])),
    Object.fromEntries([
      [eu.body.id, [['eu'], ['vip']]],
      [us.body.id, [['us', 'all'], null]],
      [none.body.id, [null, null]],
    ]),
  );
  assert.deepEqual(await messageIds(a.id, '?channel=eu'), [eu.body.id]);
  assert.deepEqual(await messageIds(a.id, '?channel=all'), [us.body.id]);
  assert.deepEqual(await messageIds(a.id, '?channel=asia'), []);
  // A repeat of the same eventId is the same message: the first labels win, on the answer and when read back.
  const dup = { eventType: 'order.created', payload: { n: 4 }, eventId: 'dup-1', channels: ['eu'], tags: ['a'] };
  const d1 = await send(a.id, dup);
  const d2 = await send(a.id, { ...dup, channels: ['us'], tags: ['b'] });
  assert.deepEqual([d2.status, d2.body.id, d2.body.channels, d2.body.tags], [202, d1.body.id, ['eu'], ['a']]);
  const read = await t.api('GET', `/api/v1/app/${a.id}/msg/dup-1`);
  assert.deepEqual([read.body.id, read.body.channels, read.body.tags], [d1.body.id, ['eu'], ['a']]);
});

test('only a POST with a key of 1 to 256 characters is idempotent; without one each request is its own', async () => {
  const a = await app('Svix keys');
  const msg = { eventType: 'order.created', payload: { n: 1 } };
  const twice = async (key?: string) => {
    const first = await send(a.id, msg, key === undefined ? {} : { key });
    const second = await send(a.id, msg, key === undefined ? {} : { key });
    assert.deepEqual([first.status, second.status], [202, 202], JSON.stringify(second.body));
    return [second.body.id === first.body.id, replayed(second)];
  };
  assert.deepEqual(await twice(), [false, null]);
  assert.deepEqual(await twice('k'.repeat(256)), [true, 'true']);
  assert.deepEqual(await twice('k'.repeat(257)), [false, null]);
  assert.deepEqual(await twice('1'), [true, 'true']);
});
