// No plaintext secret at rest or in logs: a server run that creates endpoints of both schemes, rotates their secrets,
// delivers and fails, then every byte of the database (SQLite file and WAL; PostgreSQL rows) and every log line is
// searched for each signing secret (whole, and the key bytes of whsec_ secrets and of ed25519 whsk_ secret keys),
// each API key, the admin token and the master key.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createSecretBox } from '@hookline/core';
import pg from 'pg';
import { startReceiver, startTestServer, type TestServer, until } from './server-harness.ts';

const pgUrl = process.env.HOOKLINE_TEST_PG_URL;
const pgSkip =
  !pgUrl && process.env.CI !== 'true'
    ? 'HOOKLINE_TEST_PG_URL is not set (npm test starts PostgreSQL and sets it)'
    : false;

/** The byte forms a leaked secret could take in storage: UTF-8 text, hex (bytea), base64, and a whsec_ key's raw bytes. */
function needles(secret: string): Buffer[] {
  const out = [
    Buffer.from(secret, 'utf8'),
    Buffer.from(Buffer.from(secret, 'utf8').toString('hex')),
    Buffer.from(Buffer.from(secret, 'utf8').toString('base64')),
  ];
  if (secret.startsWith('whsec_')) {
    const raw = Buffer.from(secret.slice('whsec_'.length), 'base64');
    out.push(Buffer.from(secret.slice('whsec_'.length)), raw, Buffer.from(raw.toString('hex')));
  }
  if (secret.startsWith('whsk_')) {
    // An ed25519 secret key: its base64, and its 32-byte seed raw and in hex (the public half may appear anywhere).
    const seed = Buffer.from(secret.slice('whsk_'.length), 'base64').subarray(0, 32);
    out.push(
      Buffer.from(secret.slice('whsk_'.length)),
      seed,
      Buffer.from(seed.toString('hex')),
      Buffer.from(seed.toString('base64')),
    );
  }
  return out;
}

function assertAbsent(haystack: Buffer, secrets: Map<string, string>, where: string): void {
  for (const [what, secret] of secrets) {
    for (const n of needles(secret)) assert.equal(haystack.indexOf(n), -1, `${what} found in ${where}`);
  }
}

/**
 * Drives the server through everything that handles a secret; returns each plaintext secret by what it is.
 * `afterWrite` runs as each request that writes is answered (its commit is in the store then).
 */
async function exerciseSecrets(
  t: TestServer,
  token: string,
  masterKey: string,
  afterWrite: () => void = () => {},
): Promise<Map<string, string>> {
  const secrets = new Map<string, string>([
    ['admin token', token],
    ['master key', masterKey],
  ]);
  const ok = await startReceiver();
  const failing = await startReceiver(() => 500);
  try {
    const api = async (method: string, path: string, body?: unknown) => {
      const r = await t.api(method, path, { token, ...(body === undefined ? {} : { body }) });
      if (method !== 'GET') afterWrite();
      return r;
    };
    const ten = (await api('POST', '/v1/tenants', { name: 'Secretive', owner_emails: ['ops@secretive.test'] })).body
      .id as string;
    const key = await api('POST', `/v1/tenants/${ten}/api-keys`, { name: 'ci' });
    assert.equal(key.status, 201);
    secrets.set('api key', key.body.key);
    // The tenant key works, so it is the real thing that must not be stored.
    assert.equal((await t.api('GET', `/v1/tenants/${ten}/endpoints`, { token: key.body.key })).status, 200);
    const deliveries: string[] = [];
    for (const [scheme, url] of [
      ['hookline', ok.url],
      ['standard', ok.url],
      ['hookline', failing.url],
      ['standard', failing.url],
    ] as const) {
      const ep = await api('POST', `/v1/tenants/${ten}/endpoints`, {
        url,
        scheme,
        policy: 'brief',
        event_types: [`${scheme}.${url === ok.url ? 'ok' : 'fail'}`],
      });
      assert.equal(ep.status, 201);
      secrets.set(`${scheme} secret of ${ep.body.id}`, ep.body.secret);
      const rotated = await api('POST', `/v1/tenants/${ten}/endpoints/${ep.body.id}/secret/rotate`, {});
      assert.equal(rotated.status, 200);
      for (const s of rotated.body.secrets) secrets.set(`${scheme} secret ${s.kid}`, s.secret);
      assert.equal(new Set(rotated.body.secrets.map((s: { secret: string }) => s.secret)).size, 2);
      const ev = await api('POST', `/v1/tenants/${ten}/events`, {
        type: `${scheme}.${url === ok.url ? 'ok' : 'fail'}`,
        data: { n: 1 },
      });
      assert.equal(ev.status, 202);
      deliveries.push(ev.body.deliveries[0].id);
      assert.equal((await api('POST', `/v1/tenants/${ten}/endpoints/${ep.body.id}/test`, {})).status < 500, true);
    }
    // An ed25519 endpoint (docs/rules.md#signing-ed25519): its secret keys never leave the server, so the test opens
    // the sealed rows with the master key to know what to search for.
    const ed = await api('POST', `/v1/tenants/${ten}/endpoints`, {
      url: ok.url,
      signing: 'ed25519',
      event_types: ['ed25519.ok'],
    });
    assert.equal(ed.status, 201);
    assert.equal((await api('POST', `/v1/tenants/${ten}/endpoints/${ed.body.id}/secret/rotate`, {})).status, 200);
    assert.equal((await api('POST', `/v1/tenants/${ten}/endpoints/${ed.body.id}/test`, {})).status, 200);
    const box = createSecretBox(masterKey);
    const sealedKeys = await t.server.runtime.store.catalog.listSecrets(ed.body.id);
    assert.equal(sealedKeys.length, 2);
    for (const s of sealedKeys) {
      const plain = box.open(s.sealed, ed.body.id);
      assert.match(plain, /^whsk_/);
      secrets.set(`ed25519 secret key ${s.kid}`, plain);
    }
    // Both schemes signed both live secrets on the wire; failures were recorded with their response.
    for (const id of deliveries)
      await until(
        () => api('GET', `/v1/tenants/${ten}/deliveries/${id}`),
        (r) => r.body.attempts?.length >= 1,
      );
    assert.ok(ok.received.length >= 2 && failing.received.length >= 2);
    assert.match(
      String(ok.received.find((r) => r.headers['webhook-signature'])?.headers['webhook-signature']),
      /^v1,\S+ v1,\S+$/,
    );
    assert.equal(
      await (
        await fetch(`${t.url}/v1/tenants/${ten}/endpoints`, { headers: { authorization: 'Bearer hk_live_wrong' } })
      ).status,
      401,
    );
    return secrets;
  } finally {
    await ok.close();
    await failing.close();
  }
}

test('SQLite: no plaintext secret, API key, admin token or master key in the database file, its WAL, or any log line', async () => {
  const masterKey = Buffer.alloc(32, 21).toString('base64');
  // No configured admin token: the server generates one and stores only its hash.
  const t = await startTestServer({ config: { adminToken: undefined, masterKey, logLevel: 'debug' } });
  let closed = false;
  try {
    const token = t.server.runtime.adminTokenPlaintext;
    assert.ok(token, 'the first start generated an admin token');
    const db = join(t.dir, 'hookline.db');
    const readWal = () => (existsSync(`${db}-wal`) ? readFileSync(`${db}-wal`) : Buffer.alloc(0));
    // The WAL holds the recent pages until the checkpointer copies them into the main file, and once the store has
    // been idle for a round or two (200 ms each) it empties the WAL altogether (sqlite-checkpointer.mjs): read after
    // the run, on a slow machine, it is often empty. So it is read as each write is answered, while it holds the
    // pages that write changed, and every copy is searched.
    const wals: Buffer[] = [];
    const secrets = await exerciseSecrets(t, token, masterKey, () => {
      const wal = readWal();
      if (wal.length > 0) wals.push(wal);
    });
    wals.push(readWal());
    assert.ok(
      wals.some((w) => w.length > 0),
      'the WAL is part of what is searched',
    );
    for (const wal of wals) assertAbsent(wal, secrets, 'the WAL');
    assertAbsent(readFileSync(db), secrets, 'the database file');
    const logs = Buffer.from(JSON.stringify(t.logs));
    assert.ok(t.logs.length > 10, 'the run logged');
    assertAbsent(logs, secrets, 'the logs');
    await t.server.close();
    closed = true;
    for (const f of [db, `${db}-wal`, `${db}-shm`]) if (existsSync(f)) assertAbsent(readFileSync(f), secrets, f);
    assertAbsent(Buffer.from(JSON.stringify(t.logs)), secrets, 'the logs of the shutdown');
  } finally {
    if (!closed) await t.server.close();
    await t.close().catch(() => {});
  }
});

test('PostgreSQL: no plaintext secret, API key, admin token or master key in any row or any log line', {
  skip: pgSkip,
}, async () => {
  assert.ok(pgUrl, 'HOOKLINE_TEST_PG_URL must be set in CI');
  // The master key other server tests use on this database (its settings row holds the key check).
  const masterKey = Buffer.alloc(32, 9).toString('base64');
  const token = `pg-admin-token-${Buffer.alloc(16, 7).toString('hex')}`;
  const t = await startTestServer({ config: { db: pgUrl, adminToken: token, masterKey, logLevel: 'debug' } });
  const c = new pg.Client({ connectionString: pgUrl });
  try {
    const secrets = await exerciseSecrets(t, token, masterKey);
    await c.connect();
    const tables = (await c.query('SELECT tablename FROM pg_tables WHERE schemaname = current_schema()')).rows.map(
      (r) => r.tablename as string,
    );
    assert.ok(tables.includes('endpoint_secrets') && tables.includes('api_keys'));
    const parts: string[] = [];
    for (const table of tables)
      for (const r of (await c.query(`SELECT t::text AS row FROM "${table}" t`)).rows) parts.push(r.row);
    assertAbsent(Buffer.from(parts.join('\n')), secrets, 'PostgreSQL rows');
    assertAbsent(Buffer.from(JSON.stringify(t.logs)), secrets, 'the logs');
  } finally {
    await c.end().catch(() => {});
    await t.close();
  }
});
