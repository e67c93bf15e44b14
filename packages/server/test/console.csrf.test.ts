// CSRF on console sessions over real HTTP, without a browser (docs/console.md): a cookie-authenticated request that
// changes something needs the session's x-csrf-token; without it or with another session's it is 403
// csrf_token_invalid and changes nothing; with it, it goes through. console.browser.test.ts checks the same in Chromium.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ADMIN_TOKEN, startTestServer } from './server-harness.ts';

async function signIn(url: string, token: string): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${url}/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  assert.equal(res.status, 201);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  return { cookie, csrf: ((await res.json()) as { csrf_token: string }).csrf_token };
}

test('a console session creating an API key: no token and a wrong token are 403 csrf_token_invalid and create nothing; the right token creates it', async (t) => {
  const s = await startTestServer();
  t.after(() => s.close());
  const tenant = await s.tenant('A');
  const key = (await s.api('POST', `/v1/tenants/${tenant}/api-keys`, { body: { name: 'console' } })).body;
  const other = await signIn(s.url, ADMIN_TOKEN);
  const keyCount = async () => ((await s.api('GET', `/v1/tenants/${tenant}/api-keys`)).body.items as unknown[]).length;
  assert.equal(await keyCount(), 1);

  for (const [who, session] of [
    ['admin', await signIn(s.url, ADMIN_TOKEN)],
    ['tenant key', await signIn(s.url, key.key)],
  ] as const) {
    const create = (headers: Record<string, string>) =>
      fetch(`${s.url}/v1/tenants/${tenant}/api-keys`, {
        method: 'POST',
        headers: { cookie: session.cookie, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ name: `by ${who}` }),
      });
    for (const [what, headers] of [
      ['no token', {}],
      ['an empty token', { 'x-csrf-token': '' }],
      ['a wrong token', { 'x-csrf-token': `${session.csrf.slice(0, -1)}${session.csrf.endsWith('A') ? 'B' : 'A'}` }],
      ["another session's token", { 'x-csrf-token': other.csrf }],
    ] as const) {
      const res = await create(headers);
      assert.equal(res.status, 403, `${who}, ${what}`);
      assert.equal(
        ((await res.json()) as { error: { code: string } }).error.code,
        'csrf_token_invalid',
        `${who}, ${what}`,
      );
    }
    assert.equal(await keyCount(), who === 'admin' ? 1 : 2, `${who}: the refused requests created nothing`);
    // Reads need no token; the state-changing request with the session's own token goes through.
    assert.equal((await fetch(`${s.url}/v1/tenants/${tenant}`, { headers: { cookie: session.cookie } })).status, 200);
    const ok = await create({ 'x-csrf-token': session.csrf });
    assert.equal(ok.status, 201, `${who}: ${await ok.clone().text()}`);
    assert.equal(((await ok.json()) as { name: string }).name, `by ${who}`);
  }
  assert.equal(await keyCount(), 3);

  // A DELETE is guarded the same way: the key created by the admin session survives a tokenless delete.
  const admin = await signIn(s.url, ADMIN_TOKEN);
  const del = (headers: Record<string, string>) =>
    fetch(`${s.url}/v1/tenants/${tenant}/api-keys/${key.id}`, {
      method: 'DELETE',
      headers: { cookie: admin.cookie, ...headers },
    });
  const refused = await del({});
  assert.equal(refused.status, 403);
  assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'csrf_token_invalid');
  assert.equal(await keyCount(), 3);
  assert.equal((await del({ 'x-csrf-token': admin.csrf })).status, 204);
});
