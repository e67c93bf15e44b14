// Real `hookline serve --role …` processes on one PostgreSQL database: settings that must match refuse the second
// process at start naming the setting; equal settings run together; settings that may differ are warned on /readyz
// and /metrics; a raised settings epoch lets a rolling change through (docs/scaling.md#settings-that-must-match).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ownChild } from '@hookline/core/testing';
import pg from 'pg';
import { runCli } from './cli-harness.ts';
import { type ServeProcess, serveApi, startServe } from './fixtures/serve-process.ts';
import { ADMIN_TOKEN, startReceiver, startTestServer, until, within } from './server-harness.ts';

const given = process.env.HOOKLINE_TEST_PG_URL;
const skip =
  !given && process.env.CI !== 'true'
    ? 'HOOKLINE_TEST_PG_URL is not set (npm test starts PostgreSQL and sets it)'
    : false;

const ENV = { HOOKLINE_MASTER_KEY: Buffer.alloc(32, 9).toString('base64'), HOOKLINE_ADMIN_TOKEN: ADMIN_TOKEN };

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

let n = 0;
/** A database of the test's own: another suite's processes on the shared one would be live processes here. */
async function freshDatabase(): Promise<string> {
  assert.ok(given, 'HOOKLINE_TEST_PG_URL must be set in CI');
  const name = `hl_roles_${process.pid}_${Date.now().toString(36)}_${n++}`;
  const c = new pg.Client({ connectionString: withDatabase(given, 'postgres'), connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    await c.query(`CREATE DATABASE ${name}`);
  } finally {
    await c.end();
  }
  return withDatabase(given, name);
}

type After = (fn: () => Promise<void> | void) => void;

/** `hookline serve` on `db`, owned by the test; stopped with SIGTERM (which takes its settings row back) at the end. */
async function serve(
  db: string,
  args: string[],
  after: After,
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const p = await startServe(['--db', db, ...args], { ...ENV, ...env });
  ownChild(p.child, after);
  after(() => stop(p));
  return p;
}

async function stop(p: ServeProcess): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  await within('hookline serve to stop', 20_000, p.exited);
}

async function get(p: ServeProcess, path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(p.url + path, { signal: AbortSignal.timeout(15_000) });
  return { status: res.status, text: await res.text() };
}

const gauge = (metrics: string, setting: string) =>
  new RegExp(`^hookline_settings_mismatch\\{setting="${setting}"\\} (\\d+)$`, 'm').exec(metrics)?.[1];

test('a worker whose allow-http differs from the live api is refused at start, naming the key; exit 2', {
  skip,
  timeout: 60_000,
}, async (t) => {
  const db = await freshDatabase();
  const api = await serve(db, ['--role', 'api'], t.after.bind(t));
  const worker = await runCli(
    ['serve', '--port', '0', '--host', '127.0.0.1', '--db', db, '--role', 'worker', '--allow-http'],
    ENV,
  );
  assert.equal(worker.code, 2, worker.stderr);
  const lines = worker.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line: ${worker.stderr}`);
  assert.match(
    lines[0]!,
    /^hookline: config allowHttp: differs from the live api process prc_\S+ on this database \(here true, there false\)/,
  );
  // The api runs on and the refused process left no row behind: a worker with the same settings starts.
  assert.equal((await get(api, '/readyz')).status, 200);
  const same = await serve(db, ['--role', 'worker'], t.after.bind(t));
  assert.equal(JSON.parse((await get(same, '/readyz')).text).settings_mismatch, undefined);
});

test('api and worker with the same settings both run: the worker delivers what the api accepted', {
  skip,
  timeout: 60_000,
}, async (t) => {
  const db = await freshDatabase();
  const receiver = await startReceiver();
  t.after(() => receiver.close());
  const dev = ['--allow-http', '--allow-private-targets'];
  const api = await serve(db, ['--role', 'api', ...dev], t.after.bind(t));
  const worker = await serve(db, ['--role', 'worker', ...dev], t.after.bind(t));
  // The worker's banner says it serves no API.
  assert.match(worker.output(), /delivery workers only \(no API in this process/);
  assert.doesNotMatch(worker.output(), /the API answers/);
  const call = serveApi(() => api, ADMIN_TOKEN);
  const ten = await call('POST', '/v1/tenants', { name: 'roles' });
  assert.equal(ten.status, 201, JSON.stringify(ten.body));
  const ep = await call('POST', `/v1/tenants/${ten.body.id}/endpoints`, { url: receiver.url });
  assert.equal(ep.status, 201, JSON.stringify(ep.body));
  const ev = await call('POST', `/v1/tenants/${ten.body.id}/events`, { type: 'order.created', data: { n: 1 } });
  assert.equal(ev.status, 202);
  await receiver.waitFor(1);
  for (const p of [api, worker]) {
    const ready = JSON.parse((await get(p, '/readyz')).text);
    assert.equal(ready.status, 'ready');
    assert.equal(ready.settings_mismatch, undefined);
    assert.equal(gauge((await get(p, '/metrics')).text, 'allowHttp'), '0');
  }
});

test('api processes whose body limits differ both run, warned on /readyz and /metrics until one stops', {
  skip,
  timeout: 60_000,
}, async (t) => {
  const db = await freshDatabase();
  const first = await serve(db, ['--role', 'api'], t.after.bind(t));
  const second = await serve(db, ['--role', 'api'], t.after.bind(t), { HOOKLINE_BODY_LIMIT_BYTES: '2048' });
  // The second saw the first at start; the first sees the second on its next read of the rows.
  for (const [p, here, there] of [
    [second, '2048', '1048576'],
    [first, '1048576', '2048'],
  ] as const) {
    const ready = await until(
      async () => JSON.parse((await get(p, '/readyz')).text),
      (r) => Array.isArray(r.settings_mismatch),
      { what: 'settings_mismatch on /readyz' },
    );
    assert.equal(ready.status, 'ready', 'a warned difference keeps the process ready');
    assert.deepEqual(
      ready.settings_mismatch.map((m: any) => [m.setting, m.here, m.there, m.role]),
      [['bodyLimitBytes', here, there, 'api']],
    );
    const metrics = (await get(p, '/metrics')).text;
    assert.equal(gauge(metrics, 'bodyLimitBytes'), '1');
    assert.equal(gauge(metrics, 'allowHttp'), '0');
  }
  assert.match(second.output(), /SETTINGS DIFFER/);
  // Once the second stops (taking its row back), the first agrees again.
  await stop(second);
  await until(
    async () => JSON.parse((await get(first, '/readyz')).text).settings_mismatch,
    (m) => m === undefined,
    { what: 'the warning to clear' },
  );
  // /metrics reuses a render for up to a second (RENDER_REUSE_MS): the gauge follows once that render is stale.
  await until(
    async () => gauge((await get(first, '/metrics')).text, 'bodyLimitBytes'),
    (v) => v === '0',
    { what: 'the gauge to clear' },
  );
});

test('a rolling change: a raised settings epoch starts beside the old processes (warned); the old epoch cannot start again', {
  skip,
  timeout: 60_000,
}, async (t) => {
  const db = await freshDatabase();
  await serve(db, ['--role', 'api'], t.after.bind(t));
  const next = await serve(db, ['--role', 'worker', '--allow-http', '--settings-epoch', '1'], t.after.bind(t));
  const ready = JSON.parse((await get(next, '/readyz')).text);
  assert.deepEqual(
    ready.settings_mismatch.map((m: any) => [m.setting, m.here, m.there]),
    [['allowHttp', 'true', 'false']],
  );
  const old = await runCli(['serve', '--port', '0', '--host', '127.0.0.1', '--db', db, '--role', 'worker'], ENV);
  assert.equal(old.code, 2, old.stderr);
  assert.match(old.stderr, /^hookline: config settingsEpoch: the live worker process prc_\S+ .*epoch 1, this one 0/);
});

test('SQLite: the one owner forgets the row a killed predecessor left and compares with nothing', async (t) => {
  const masterKey = Buffer.alloc(32, 9).toString('base64');
  const dir = mkdtempSync(join(tmpdir(), 'hookline-roles-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'hookline.db');
  const first = await startTestServer({ config: { db, masterKey } });
  // What a SIGKILLed owner leaves behind: a fresh row with other settings (a graceful stop removes its own row).
  const now = Date.now();
  await first.server.runtime.store.processes.putProcess({
    processId: 'prc_killed',
    role: 'all',
    epoch: 0,
    settings: { allowHttp: 'false', allowPrivateTargets: 'false' },
    startedAt: now,
    seenAt: now,
  });
  await first.close();
  const next = await startTestServer({ config: { db, masterKey } });
  try {
    const ready = await next.api('GET', '/readyz', { token: null });
    assert.equal(ready.status, 200);
    assert.equal(ready.body.settings_mismatch, undefined);
    const rows = await next.server.runtime.engine.processes.live();
    assert.deepEqual(
      rows.map((r) => r.processId),
      [next.server.runtime.settings.processId],
    );
  } finally {
    await next.close();
  }
});
