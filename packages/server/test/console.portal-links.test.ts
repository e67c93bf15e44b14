// Portal links over real HTTP, without a browser (docs/console.md#portal-links): a link signs in once, within 15
// minutes; a used or expired one is 400 portal_link_invalid; the session it opens reaches its own tenant only and
// needs its CSRF token to change anything. console.iframe.browser.test.ts shows the same in Chromium.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '@hookline/core';
import { startTestServer, type TestServer } from './server-harness.ts';

const MIN = 60_000;

async function newLink(s: TestServer, tenant: string): Promise<string> {
  const r = await s.api('POST', `/v1/tenants/${tenant}/portal-links`);
  assert.equal(r.status, 201);
  return new URL(r.body.url as string).pathname;
}

/** Visits a portal link the way a browser's first request does: no cookie, redirects not followed. */
const visit = (s: TestServer, path: string) => fetch(`${s.url}${path}`, { redirect: 'manual' });

async function assertRefused(res: Response, what: string): Promise<void> {
  assert.equal(res.status, 400, what);
  assert.equal(res.headers.get('set-cookie'), null, `${what}: no session`);
  assert.match(await res.text(), /<code>portal_link_invalid<\/code>/, what);
}

test('a portal link signs in once into its own tenant only; a second visit is refused; the session needs its CSRF token', async (t) => {
  const s = await startTestServer();
  t.after(() => s.close());
  const [a, b] = [await s.tenant('A'), await s.tenant('B')];
  const link = await newLink(s, a);

  const first = await visit(s, link);
  assert.equal(first.status, 303);
  assert.equal(first.headers.get('location'), `/console/#/t/${a}`);
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
  assert.match(cookie, /^hl_console=./);
  await assertRefused(await visit(s, link), 'the same link again');
  await assertRefused(await visit(s, link), 'and again');

  const get = (path: string) => fetch(`${s.url}${path}`, { headers: { cookie } });
  const session = (await (await get('/console/session')).json()) as {
    kind: string;
    tenant_id: string;
    csrf_token: string;
  };
  assert.deepEqual([session.kind, session.tenant_id], ['tenant', a]);
  assert.equal((await get(`/v1/tenants/${a}`)).status, 200);
  assert.equal((await get(`/v1/tenants/${a}/endpoints`)).status, 200);
  // Another tenant's resources answer as if they did not exist; the admin-only listing of tenants is forbidden.
  for (const path of [`/v1/tenants/${b}`, `/v1/tenants/${b}/endpoints`, `/v1/tenants/${b}/api-keys`])
    assert.equal((await get(path)).status, 404, path);
  assert.equal((await get('/v1/tenants')).status, 403, 'tenant listing');

  const createKey = (tenant: string, headers: Record<string, string>) =>
    fetch(`${s.url}/v1/tenants/${tenant}/api-keys`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ name: 'portal' }),
    });
  const noCsrf = await createKey(a, {});
  assert.equal(noCsrf.status, 403);
  assert.equal(((await noCsrf.json()) as { error: { code: string } }).error.code, 'csrf_token_invalid');
  assert.equal((await createKey(b, { 'x-csrf-token': session.csrf_token })).status, 404, 'tenant B');
  assert.equal((await s.api('GET', `/v1/tenants/${b}/api-keys`)).body.items.length, 0, 'nothing created in B');
  assert.equal((await createKey(a, { 'x-csrf-token': session.csrf_token })).status, 201);
});

test('a portal link works until 15 minutes after its creation and is refused from then on; a made-up link is refused', async (t) => {
  const clock = new VirtualClock(Date.now());
  const s = await startTestServer({ clock });
  t.after(() => s.close());
  const tenant = await s.tenant('A');
  const early = await newLink(s, tenant);
  const late = await newLink(s, tenant);
  clock.advance(15 * MIN - 1);
  assert.equal((await visit(s, early)).status, 303, 'one millisecond before it expires');
  clock.advance(1);
  await assertRefused(await visit(s, late), 'at 15 minutes');
  clock.advance(MIN);
  await assertRefused(await visit(s, late), 'after 16 minutes');
  await assertRefused(await visit(s, `/console/portal/hlp_${'A'.repeat(43)}`), 'a link never issued');
  // An expired link was not consumed by the refusal: it stays refused, and a fresh link still works.
  assert.equal((await visit(s, await newLink(s, tenant))).status, 303);
});
