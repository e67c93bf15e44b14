// `hookline audit`: the list (all tenants for the admin, one with --tenant or for a tenant key), verify (exit 1 naming
// the entry once a row is edited in the database behind the server's back) and the NDJSON export.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { json, runMain } from './cli-harness.ts';
import { ADMIN_TOKEN, startTestServer } from './server-harness.ts';

test('hookline audit lists, exports and verifies; an edited entry makes verify fail naming it', async (t) => {
  const srv = await startTestServer();
  t.after(() => srv.close());
  const env = { HOOKLINE_URL: srv.url, HOOKLINE_TOKEN: ADMIN_TOKEN };
  const a = await srv.tenant('A');
  const b = await srv.tenant('B');
  const key = (await srv.api('POST', `/v1/tenants/${a}/api-keys`, { body: { name: 'cli' } })).body.key as string;
  await srv.api('PATCH', `/v1/tenants/${a}`, { body: { name: 'A2' } });

  const all = await runMain(['audit', '--json'], env);
  assert.equal(all.code, 0, all.stderr);
  assert.deepEqual(
    json(all).items.map((e: { action: string }) => e.action),
    ['tenant.update', 'api_key.create', 'tenant.create', 'tenant.create'],
  );
  const table = await runMain(['audit', 'list', '--tenant', a, '--action', 'tenant.update'], env);
  assert.match(table.stdout, /tenant\.update/);
  assert.match(table.stdout, /admin:admin/);
  assert.doesNotMatch(table.stdout, new RegExp(b));
  const own = await runMain(['audit', '--json'], { HOOKLINE_URL: srv.url, HOOKLINE_TOKEN: key });
  assert.equal(own.code, 0, own.stderr);
  assert.ok(json(own).items.every((e: { tenant_id: string }) => e.tenant_id === a));

  const exported = await runMain(['audit', 'export'], env);
  assert.equal(exported.code, 0, exported.stderr);
  assert.deepEqual(
    exported.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).seq),
    [4, 3, 2, 1],
  );

  const ok = await runMain(['audit', 'verify'], env);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /audit log ok: 4 entries/);

  const db = new Database(join(srv.dir, 'hookline.db'));
  db.pragma('busy_timeout = 5000');
  db.prepare("UPDATE audit_log SET action = 'tenant.read' WHERE seq = 2").run();
  db.close();
  const broken = await runMain(['audit', 'verify'], env);
  assert.equal(broken.code, 1);
  assert.match(broken.stdout, /BROKEN at entry 2/);
});
