// The console's server side over real HTTP: static files and their headers, the sealed session cookie (flags,
// tampering, 12-hour limit, a revoked key), frame-ancestors from config and env (docs/console.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '@hookline/core';
import { resolveConfig } from '../src/config.ts';
import { ADMIN_TOKEN, startTestServer } from './server-harness.ts';

const signIn = (url: string, token: string) =>
  fetch(`${url}/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
const cookieOf = (res: Response) => (res.headers.get('set-cookie') ?? '').split(';')[0];

test('the console files are served with their content types, a strict CSP and the configured frame-ancestors', async (t) => {
  const s = await startTestServer({ env: { HOOKLINE_CONSOLE_FRAME_ANCESTORS: 'https://app.provider.test' } });
  t.after(() => s.close());
  const index = await fetch(`${s.url}/console/`);
  assert.equal(index.status, 200);
  assert.equal(index.headers.get('content-type'), 'text/html; charset=utf-8');
  const csp = index.headers.get('content-security-policy') ?? '';
  assert.match(csp, /frame-ancestors https:\/\/app\.provider\.test/);
  assert.match(csp, /script-src 'self'/);
  assert.equal(index.headers.get('x-content-type-options'), 'nosniff');
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  // The Vite build: index.html names its hashed script and stylesheet; nothing inline, nothing from elsewhere.
  const html = await index.text();
  const script = /<script type="module" crossorigin src="(\/console\/assets\/[^"]+\.js)"><\/script>/.exec(html)?.[1];
  const style = /<link rel="stylesheet" crossorigin href="(\/console\/assets\/[^"]+\.css)">/.exec(html)?.[1];
  assert.ok(script && style, html);
  assert.doesNotMatch(
    html.replace(/<script[^>]*src="[^"]+"[^>]*><\/script>/g, ''),
    /<script|<style|style=/,
    'no inline script or style',
  );
  assert.doesNotMatch(html, /https?:\/\//, 'no request leaves the machine');
  const js = await fetch(`${s.url}${script}`);
  assert.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
  assert.match(js.headers.get('cache-control') ?? '', /immutable/, 'hashed file names are cached for good');
  assert.equal((await fetch(`${s.url}${style}`)).headers.get('content-type'), 'text/css; charset=utf-8');
  assert.equal((await fetch(`${s.url}/console/../package.json`)).status, 404);
  assert.equal((await fetch(`${s.url}/console/nope.js`)).status, 404);
  const redirect = await fetch(`${s.url}/console`, { redirect: 'manual' });
  assert.equal(redirect.headers.get('location'), '/console/');
  const plain = await startTestServer();
  t.after(() => plain.close());
  assert.match(
    (await fetch(`${plain.url}/console/`)).headers.get('content-security-policy') ?? '',
    /frame-ancestors 'none'/,
  );
  assert.throws(
    () => resolveConfig({ env: {}, argv: { consoleFrameAncestors: 'https://a.test; script-src *' } }),
    /config consoleFrameAncestors/,
  );
});

test('the session cookie is HttpOnly, Secure unless --allow-http, SameSite; a bad token is 401', async (t) => {
  const secure = await startTestServer({ config: { allowHttp: false } });
  t.after(() => secure.close());
  const res = await signIn(secure.url, ADMIN_TOKEN);
  assert.equal(res.status, 201);
  const flags = res.headers.get('set-cookie') ?? '';
  assert.match(flags, /^hl_console=[^;]+; Path=\/; Max-Age=(43200|4319\d); HttpOnly; Secure; SameSite=Strict$/);
  const body = await res.json();
  assert.equal(body.kind, 'admin');
  assert.equal(typeof body.csrf_token, 'string');
  const http = await startTestServer();
  t.after(() => http.close());
  const plain = (await signIn(http.url, ADMIN_TOKEN)).headers.get('set-cookie') ?? '';
  assert.doesNotMatch(plain, /Secure/);
  assert.match(plain, /HttpOnly; SameSite=Strict/);
  const bad = await signIn(http.url, 'hk_live_not-a-key');
  assert.equal(bad.status, 401);
  assert.equal((await bad.json()).error.code, 'unauthorized');
});

test('a tampered cookie is no session; a session ends after 12 hours; a revoked key ends its session', async (t) => {
  const clock = new VirtualClock(Date.now());
  const s = await startTestServer({ clock });
  t.after(() => s.close());
  const tenant = await s.tenant('A');
  const key = (await s.api('POST', `/v1/tenants/${tenant}/api-keys`, { body: { name: 'k' } })).body;
  const cookie = cookieOf(await signIn(s.url, key.key));
  const get = (c: string, path = `/v1/tenants/${tenant}`) => fetch(`${s.url}${path}`, { headers: { cookie: c } });
  assert.equal((await get(cookie)).status, 200);
  const value = decodeURIComponent(cookie.slice('hl_console='.length));
  const flipped = value.slice(0, -4) + (value.endsWith('AAAA') ? 'BBBB' : 'AAAA');
  assert.equal((await get(`hl_console=${encodeURIComponent(flipped)}`)).status, 401);
  assert.equal((await s.api('DELETE', `/v1/tenants/${tenant}/api-keys/${key.id}`)).status, 204);
  assert.equal((await get(cookie)).status, 401, 'the revoked key session is over');
  const admin = cookieOf(await signIn(s.url, ADMIN_TOKEN));
  clock.advance(12 * 3_600_000 - 1);
  assert.equal((await get(admin)).status, 200);
  clock.advance(1);
  assert.equal((await get(admin)).status, 401, 'no session outlives 12 hours');
});

test('sign-out needs the CSRF token and clears the cookie; a portal link for an unknown tenant is 404', async (t) => {
  const s = await startTestServer();
  t.after(() => s.close());
  const res = await signIn(s.url, ADMIN_TOKEN);
  const cookie = cookieOf(res);
  const { csrf_token } = await res.json();
  assert.equal((await fetch(`${s.url}/console/session`, { method: 'DELETE', headers: { cookie } })).status, 403);
  const out = await fetch(`${s.url}/console/session`, {
    method: 'DELETE',
    headers: { cookie, 'x-csrf-token': csrf_token },
  });
  assert.equal(out.status, 204);
  assert.match(out.headers.get('set-cookie') ?? '', /^hl_console=; Path=\/; Max-Age=0; HttpOnly/);
  assert.equal((await s.api('POST', '/v1/tenants/ten_nope/portal-links')).status, 404);
  assert.equal((await fetch(`${s.url}/console/portal/not-a-link`)).status, 400);
});
