// Who the audit log names (docs/audit.md#an-entry): the admin token, an API key, a console session opened with either,
// and a portal link — its creation, its use (the link's own sign-in, under the link's id and its tenant) and the
// changes made in the session it opened; each with the request's address, user agent and id.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestServer } from './server-harness.ts';

test('the actor of each entry: admin, api_key, console_session, portal_link, with ip, user agent and request id', async (t) => {
  const s = await startTestServer();
  t.after(() => s.close());
  const tenant = await s.tenant('A');
  const key = (await s.api('POST', `/v1/tenants/${tenant}/api-keys`, { body: { name: 'k' } })).body;
  const byKey = await s.api('PATCH', `/v1/tenants/${tenant}`, {
    token: key.key,
    body: { name: 'by key' },
    headers: { 'user-agent': 'audit-test/1' },
  });

  // A console session opened with the key: the sign-in is the key's; what the session changes is the session's.
  const signIn = await fetch(`${s.url}/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: key.key }),
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
  const { csrf_token } = (await signIn.json()) as { csrf_token: string };
  const viaConsole = await fetch(`${s.url}/v1/tenants/${tenant}`, {
    method: 'PATCH',
    headers: { cookie, 'x-csrf-token': csrf_token, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'by console' }),
  });
  assert.equal(viaConsole.status, 200);

  // A portal link: made by the admin, used once (its sign-in), then its session changes the tenant.
  const link = (await s.api('POST', `/v1/tenants/${tenant}/portal-links`)).body;
  const used = await fetch(link.url.replace(/^https?:\/\/[^/]+/, s.url), { redirect: 'manual' });
  assert.equal(used.status, 303);
  const portalCookie = (used.headers.get('set-cookie') ?? '').split(';')[0];
  const portalSession = (await (
    await fetch(`${s.url}/console/session`, { headers: { cookie: portalCookie } })
  ).json()) as {
    csrf_token: string;
  };
  const viaPortal = await fetch(`${s.url}/v1/tenants/${tenant}`, {
    method: 'PATCH',
    headers: { cookie: portalCookie, 'x-csrf-token': portalSession.csrf_token, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'by portal' }),
  });
  assert.equal(viaPortal.status, 200);

  const log = (await s.api('GET', `/v1/tenants/${tenant}/audit-log?limit=50`)).body.items as Array<Record<string, any>>;
  const rows = log.map((e) => [e.action, e.actor.kind, e.actor.id]).reverse();
  const linkId = log.find((e) => e.action === 'portal_link.create')!.target.id as string;
  assert.match(linkId, /^[0-9a-f]{16}$/);
  assert.deepEqual(rows, [
    ['tenant.create', 'admin', 'admin'],
    ['api_key.create', 'admin', 'admin'],
    ['tenant.update', 'api_key', key.id],
    ['console.sign_in', 'api_key', key.id],
    ['tenant.update', 'console_session', key.id],
    ['portal_link.create', 'admin', 'admin'],
    ['portal_link.use', 'portal_link', linkId],
    ['tenant.update', 'portal_link', linkId],
  ]);
  const keyed = log.find((e) => e.actor.request_id === byKey.headers.get('x-request-id'))!;
  assert.deepEqual(keyed.actor, {
    kind: 'api_key',
    id: key.id,
    ip: '127.0.0.1',
    user_agent: 'audit-test/1',
    request_id: byKey.headers.get('x-request-id'),
  });
  assert.deepEqual(keyed.changes.name, { before: 'A', after: 'by key' });
  const created = log.find((e) => e.action === 'api_key.create')!;
  assert.equal(created.changes.hash.after, '[redacted]', "the key's hash is never written");
  assert.ok(!JSON.stringify(log).includes(key.key));
  assert.ok(!JSON.stringify(log).includes(link.url.split('/').pop()), 'nor the portal token');
});
