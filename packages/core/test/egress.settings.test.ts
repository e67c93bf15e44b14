// An endpoint's egress settings through the engine (docs/rules.md#oauth2, docs/rules.md#client-certificate): new
// OAuth2 settings send a new token at the next attempt, a replaced client certificate is the one presented; the key
// and the client secret are sealed for their endpoint and purpose — never in the database file, and a sealed value
// copied to another endpoint does not open there.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import type { TLSSocket } from 'node:tls';
import { createSender } from '../src/http/sender.ts';
import { SqliteDriver } from '../src/store/sqlite/sqlite-driver.ts';
import { sqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { tempStore, testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';
import { haveOpenssl, testCa } from '../testing/test-certificates.ts';

const ci = process.env.CI === 'true';

async function listen(server: Server, after: (fn: () => Promise<void>) => void): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

/** A client-credentials token server: each client id has its secret, and gets `tok-<id>-<n>` (n: its n-th token). */
async function tokenServer(secrets: Record<string, string>, after: (fn: () => Promise<void>) => void) {
  const asks: string[] = [];
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const [id, secret] = Buffer.from(String(req.headers.authorization).replace(/^Basic /, ''), 'base64')
        .toString()
        .split(':');
      asks.push(`${id}:${secret}`);
      const ok = id !== undefined && secrets[id] === secret;
      const n = asks.filter((a) => a.startsWith(`${id}:`)).length;
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? { access_token: `tok-${id}-${n}`, token_type: 'Bearer', expires_in: 3600 } : {}));
    });
  });
  const port = await listen(server, after);
  return { url: `http://127.0.0.1:${port}/token`, asks };
}

test('new OAuth2 settings: the next attempt asks for a token with them and sends it, not the cached one', async (t) => {
  const tokens = await tokenServer({ one: 's1', two: 's2' }, t.after.bind(t));
  const e = await testEngine();
  t.after(() => e.close());
  const rx = await startReceiver(() => 200, { clock: e.clock });
  t.after(() => rx.close());
  const { endpoint } = await e.engine.endpoints.create(e.tenantId, {
    url: rx.url,
    oauth2: { token_url: tokens.url, client_id: 'one', client_secret: 's1' },
  });
  const send = async () => {
    await e.engine.events.accept(e.tenantId, { type: 'a.b', data: {} });
    await e.engine.runDue();
    return rx.received.at(-1)?.headers.authorization;
  };
  assert.equal(await send(), 'Bearer tok-one-1');
  assert.equal(await send(), 'Bearer tok-one-1', 'the token is kept while it is valid');
  await e.engine.endpoints.update(e.tenantId, endpoint.id, {
    oauth2: { token_url: tokens.url, client_id: 'two', client_secret: 's2' },
  });
  assert.equal(await send(), 'Bearer tok-two-1', 'the new client’s token');
  assert.deepEqual(tokens.asks, ['one:s1', 'two:s2']);
  // Back to the first client: its own new token, not the one cached under the old settings.
  await e.engine.endpoints.update(e.tenantId, endpoint.id, {
    oauth2: { token_url: tokens.url, client_id: 'one', client_secret: 's1' },
  });
  assert.equal(await send(), 'Bearer tok-one-2');
  assert.equal(rx.received.length, 4);
});

test('a replaced client certificate is the one the receiver sees at the next attempt', {
  skip: !haveOpenssl && !ci && 'openssl not installed',
}, async (t) => {
  const ca = testCa();
  t.after(() => ca.remove());
  const serverCert = ca.issue('127.0.0.1', { names: ['127.0.0.1'] });
  const [a, b] = [
    ca.issue('client-a', { usage: 'client', days: 30 }),
    ca.issue('client-b', { usage: 'client', days: 30 }),
  ];
  const peers: string[] = [];
  const rx = createHttpsServer(
    { key: serverCert.key, cert: serverCert.cert, ca: ca.cert, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      req.resume();
      req.on('end', () => {
        peers.push(String((req.socket as TLSSocket).getPeerCertificate().subject.CN));
        res.writeHead(200).end();
      });
    },
  );
  const port = await listen(rx, t.after.bind(t));
  const sender = createSender({ allowHttp: true, allowPrivateTargets: true, ca: ca.cert });
  const e = await testEngine({ sender });
  t.after(() => e.close());
  const pem = (c: typeof a) => ({ certificate: c.cert.toString(), key: c.key.toString() });
  const { endpoint } = await e.engine.endpoints.create(e.tenantId, {
    url: `https://127.0.0.1:${port}/in`,
    client_certificate: pem(a),
  });
  const send = async () => {
    const r = await e.engine.events.accept(e.tenantId, { type: 'a.b', data: {} });
    await e.engine.runDue();
    const { delivery } = await e.engine.deliveries.detail(e.tenantId, r.deliveries[0].id);
    assert.equal(delivery.status, 'succeeded');
    return peers.at(-1);
  };
  assert.equal(await send(), 'client-a');
  await e.engine.endpoints.update(e.tenantId, endpoint.id, { client_certificate: pem(b) });
  assert.equal(await send(), 'client-b');
  // A test send takes the same way out.
  await e.engine.endpoints.test(e.tenantId, endpoint.id);
  assert.deepEqual(peers, ['client-a', 'client-b', 'client-b']);
});

test('the client secret is sealed for its endpoint: never in the database file, and copied to another endpoint it does not open', async (t) => {
  const tokens = await tokenServer({ one: 'one-s3cret', two: 'two-s3cret' }, t.after.bind(t));
  const temp = await tempStore();
  await temp.store.close();
  const driver = new SqliteDriver(temp.path);
  const store = sqliteStore(driver);
  await store.migrate();
  const e = await testEngine({ store });
  t.after(async () => {
    await e.close();
    await store.close();
    await temp.cleanup().catch(() => {});
  });
  const rx = await startReceiver(() => 200, { clock: e.clock });
  t.after(() => rx.close());
  const create = async (id: string) =>
    (
      await e.engine.endpoints.create(e.tenantId, {
        url: rx.url,
        oauth2: { token_url: tokens.url, client_id: id, client_secret: `${id}-s3cret` },
      })
    ).endpoint.id;
  const one = await create('one');
  const two = await create('two');
  await e.engine.endpoints.test(e.tenantId, two);
  assert.equal(rx.received.at(-1)?.headers.authorization, 'Bearer tok-two-1');
  driver.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  for (const f of readdirSync(dirname(temp.path)).filter((n) => n.startsWith('hookline.db'))) {
    const bytes = readFileSync(join(dirname(temp.path), f)).toString('latin1');
    assert.equal(bytes.includes('s3cret'), false, `${f} holds a client secret`);
  }
  // Someone with database access moves endpoint one's sealed secret onto endpoint two (client id `one`, as if two
  // were one): it opens only for the endpoint it was sealed for, so two asks for no token with it.
  driver.db.exec(
    `UPDATE endpoint_egress SET (oauth2, oauth2_secret_sealed) =
       (SELECT oauth2, oauth2_secret_sealed FROM endpoint_egress WHERE endpoint_id = '${one}')
     WHERE endpoint_id = '${two}'`,
  );
  // A settings change moves the version, so the cached settings are read again.
  await e.engine.endpoints.update(e.tenantId, two, { description: 'moved' });
  const asked = tokens.asks.length;
  await assert.rejects(e.engine.endpoints.test(e.tenantId, two), /cannot open sealed value/);
  assert.equal(tokens.asks.length, asked, 'no token request with a secret sealed for another endpoint');
});

test('egress settings as the engine checks, keeps and shows them: refusals write nothing, absent keeps, null removes', async (t) => {
  const e = await testEngine();
  t.after(() => e.close());
  const url = 'https://hooks.example.com/in';
  const tokenUrl = 'https://auth.example/token';
  const code = (p: Promise<unknown>) =>
    p.then(
      () => 'accepted',
      (x: { code?: string; message: string }) => `${x.code}: ${x.message}`,
    );
  const oauth2 = (o: Record<string, unknown>) => ({ oauth2: { token_url: tokenUrl, client_id: 'c', ...o } as never });
  const refusals: Array<[Record<string, unknown>, RegExp]> = [
    [{ proxy: 'Not A Name' }, /^proxy_invalid/],
    [{ proxy: 'eu.west' }, /^proxy_invalid/],
    [{ proxy: 'x'.repeat(64) }, /^proxy_invalid/],
    [{ proxy: 7 }, /^proxy_invalid/],
    [oauth2({ client_secret: 's', token_url: 'ftp://auth.example/token' }), /^oauth_client_invalid: .*token_url/],
    [oauth2({ client_secret: 's', client_id: '' }), /^oauth_client_invalid: .*client_id must be a string of 1 to 1000/],
    [oauth2({ client_secret: 's', client_id: 'c'.repeat(1001) }), /client_id must be/],
    [oauth2({ client_secret: 's', client_id: 5 }), /client_id must be/],
    [oauth2({ client_secret: 's', scope: 'x'.repeat(1001) }), /scope must be/],
    [oauth2({}), /^oauth_client_invalid: .*client_secret is required/],
    [{ client_certificate: { certificate: 'x' } }, /^client_certificate_invalid: .*give certificate and key/],
    [{ client_certificate: { key: 'x' } }, /give certificate and key/],
    [{ client_certificate: null, proxy: 'Bad' }, /^proxy_invalid/],
  ];
  for (const [fields, expected] of refusals)
    assert.match(
      await code(e.engine.endpoints.create(e.tenantId, { url, ...fields })),
      expected,
      JSON.stringify(fields),
    );
  assert.equal((await e.engine.endpoints.list(e.tenantId, null, 10)).items.length, 0, 'nothing was stored');

  const { endpoint } = await e.engine.endpoints.create(e.tenantId, {
    url,
    proxy: 'eu-1',
    ...oauth2({ client_secret: 's', scope: '', audience: 'aud' }),
  });
  const shown = {
    proxy: 'eu-1',
    certificate: null,
    oauth2: { tokenUrl, clientId: 'c', scope: null, audience: 'aud', hasSecret: true },
  };
  assert.deepEqual(endpoint.egress, shown, 'an empty scope is none; the secret is only said to be there');
  assert.deepEqual((await e.engine.endpoints.get(e.tenantId, endpoint.id)).egress, shown);
  // Absent leaves a setting as it is; `default` is the configured proxy; an edit without the secret keeps it.
  const edited = await e.engine.endpoints.update(e.tenantId, endpoint.id, {
    proxy: 'default',
    ...oauth2({ client_id: 'c2' }),
  });
  assert.deepEqual(edited.egress, {
    ...shown,
    proxy: null,
    oauth2: { ...shown.oauth2, clientId: 'c2', audience: null },
  });
  assert.match(await code(e.engine.endpoints.update(e.tenantId, endpoint.id, { proxy: 'Bad' })), /^proxy_invalid/);
  const removed = await e.engine.endpoints.update(e.tenantId, endpoint.id, { oauth2: null, proxy: null });
  assert.deepEqual(removed.egress, { proxy: null, certificate: null, oauth2: null });
  assert.deepEqual((await e.engine.endpoints.get(e.tenantId, endpoint.id)).egress, removed.egress);
});
