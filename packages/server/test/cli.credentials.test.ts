// The CLI's credentials: no token says how to give one, a refused one says where it came from, and a tenant API key
// implies its tenant when neither --tenant nor HOOKLINE_TENANT is given.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { json, runCli, runMain } from './cli-harness.ts';
import { ADMIN_TOKEN, startTestServer } from './server-harness.ts';

test('no token, a wrong token, and a tenant key standing for its tenant', async (t) => {
  const srv = await startTestServer();
  t.after(() => srv.close());
  const tenant = await srv.tenant();
  const created = await srv.api('POST', `/v1/tenants/${tenant}/api-keys`, { body: { name: 'cli' } });
  assert.equal(created.status, 201);
  const apiKey = created.body.key as string;

  // The real executable, without any token.
  const none = await runCli(['endpoints', 'list', '--tenant', tenant], { HOOKLINE_URL: srv.url });
  assert.equal(none.code, 4, none.stderr);
  assert.equal(
    none.stderr,
    'hookline: no token: pass --token <admin token or tenant API key> or set HOOKLINE_TOKEN (credentials_missing, HTTP 401)\n',
  );
  const wrong = await runMain(['endpoints', 'list', '--tenant', tenant, '--token', 'hk_live_nope'], {
    HOOKLINE_URL: srv.url,
  });
  assert.equal(wrong.code, 4, wrong.stderr);
  assert.match(
    wrong.stderr,
    /^hookline: the API refused the token \(unauthorized, HTTP 401\): check --token or HOOKLINE_TOKEN/,
  );

  // A tenant key and no tenant: the key's own tenant, for tenant-scoped commands and `tenants show`.
  const env = { HOOKLINE_URL: srv.url, HOOKLINE_TOKEN: apiKey };
  const added = await runMain(['endpoints', 'add', 'http://127.0.0.1:9/hook', '--json'], env);
  assert.equal(added.code, 0, added.stderr);
  const listed = json(await runMain(['endpoints', 'list', '--json'], env));
  assert.deepEqual(
    listed.items.map((e: { id: string }) => e.id),
    [json(added).id],
  );
  assert.equal(json(await runMain(['tenants', 'show', '--json'], env)).id, tenant);
  // The admin token names no tenant: still a usage error that says how to name one.
  const admin = await runMain(['endpoints', 'list'], { HOOKLINE_URL: srv.url, HOOKLINE_TOKEN: ADMIN_TOKEN });
  assert.equal(admin.code, 2, admin.stderr);
  assert.match(admin.stderr, /no tenant: pass --tenant <id> or set HOOKLINE_TENANT/);
});
