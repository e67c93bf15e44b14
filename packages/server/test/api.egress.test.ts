// An endpoint's way out through the whole server (docs/rules.md#egress-proxy): a delivery leaves through Debian's
// tinyproxy to a receiver that requires a client certificate from a test CA (mTLS) and a Bearer token from a loopback
// OAuth2 token server, and verifies; the key and the client secret are never shown and never stored in the clear.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import type { TLSSocket } from 'node:tls';
import { createSender, type LookupAll } from '@hookline/core';
import { haveOpenssl, haveTinyproxy, startTinyproxy, testCa } from '@hookline/core/testing';
import { verifyWebhook } from '@hookline/receiver';
import { startTestServer, until } from './server-harness.ts';

const ci = process.env.CI === 'true';

/** hook.test and auth.test are this machine, without DNS. */
const lookup: LookupAll = (hostname, _o, cb) => {
  if (hostname === 'hook.test' || hostname === 'auth.test') cb(null, [{ address: '127.0.0.1', family: 4 }]);
  else cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
};

async function listen(server: Server, after: (fn: () => Promise<void>) => void): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

test('a delivery through tinyproxy to an mTLS receiver that also demands an OAuth2 token succeeds and verifies', {
  skip: (!haveTinyproxy || !haveOpenssl) && !ci && 'tinyproxy or openssl not installed',
}, async (t) => {
  assert.ok(haveTinyproxy && haveOpenssl, 'CI=true without tinyproxy/openssl (scripts/services.sh installs them)');
  const after = t.after.bind(t);
  const ca = testCa();
  t.after(() => ca.remove());
  const serverCert = ca.issue('hook.test', { names: ['hook.test'] });
  const clientCert = ca.issue('hookline-client', { usage: 'client', days: 30 });

  // The token server: client credentials by Basic auth, one token.
  const tokenAsks: Array<{ authorization: string | undefined; body: string }> = [];
  const tokens = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      tokenAsks.push({ authorization: req.headers.authorization, body });
      const ok = req.headers.authorization === `Basic ${Buffer.from('hookline:s3cret').toString('base64')}`;
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? { access_token: 'tok-1', token_type: 'Bearer', expires_in: 3600 } : {}));
    });
  });
  const tokenPort = await listen(tokens, after);

  // The receiver: TLS that requires a client certificate from the CA, and the Bearer token.
  const received: Array<{
    peer: string;
    authorization: string | undefined;
    headers: Record<string, string>;
    body: string;
  }> = [];
  const rx = createHttpsServer(
    { key: serverCert.key, cert: serverCert.cert, ca: ca.cert, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        received.push({
          peer: String((req.socket as TLSSocket).getPeerCertificate().subject.CN),
          authorization: req.headers.authorization,
          headers: req.headers as Record<string, string>,
          body,
        });
        res.writeHead(req.headers.authorization === 'Bearer tok-1' ? 200 : 401).end();
      });
    },
  );
  const rxPort = await listen(rx, after);

  const tiny = await startTinyproxy(after, { connectPorts: [rxPort] });
  // The engine's sender as the server builds it, trusting the test CA; the proxy is the configured egress.
  const sender = createSender({
    allowHttp: true,
    allowPrivateTargets: true,
    lookup,
    ca: ca.cert,
    egress: { proxy: tiny.url },
  });
  const srv = await startTestServer({ sender, lookup });
  t.after(() => srv.close());
  const ten = await srv.tenant();

  const created = await srv.api('POST', `/v1/tenants/${ten}/endpoints`, {
    body: {
      url: `https://hook.test:${rxPort}/in`,
      client_certificate: { certificate: clientCert.cert.toString(), key: clientCert.key.toString() },
      oauth2: {
        token_url: `http://auth.test:${tokenPort}/oauth/token`,
        client_id: 'hookline',
        client_secret: 's3cret',
        scope: 'webhooks',
      },
    },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const ep = created.body;
  assert.equal(ep.client_certificate.has_certificate, true);
  assert.match(ep.client_certificate.subject, /CN=hookline-client/);
  assert.ok(Date.parse(ep.client_certificate.expires_at) > Date.now() + 29 * 86_400_000);
  assert.deepEqual(ep.oauth2, {
    token_url: `http://auth.test:${tokenPort}/oauth/token`,
    client_id: 'hookline',
    scope: 'webhooks',
    audience: null,
    has_secret: true,
  });
  const shown = JSON.stringify([ep, (await srv.api('GET', `/v1/tenants/${ten}/endpoints/${ep.id}`)).body]);
  assert.doesNotMatch(shown, /PRIVATE KEY|s3cret/, 'the key and the secret are never shown');

  const ev = await srv.api('POST', `/v1/tenants/${ten}/events`, { body: { type: 'order.paid', data: { n: 1 } } });
  assert.equal(ev.status, 202, JSON.stringify(ev.body));
  const id = ev.body.deliveries[0].id;
  const d = await until(
    () => srv.api('GET', `/v1/tenants/${ten}/deliveries/${id}`),
    (r) => r.body.status === 'succeeded' || r.body.status === 'failed' || r.body.attempts?.length > 1,
    { what: 'the delivery to end', timeoutMs: 20_000 },
  );
  assert.equal(d.body.status, 'succeeded', JSON.stringify(d.body.attempts));
  assert.equal(received.length, 1);
  const got = received[0];
  assert.equal(got.peer, 'hookline-client', 'the client certificate was presented');
  assert.equal(got.authorization, 'Bearer tok-1');
  verifyWebhook(got.headers, got.body, { secrets: created.body.secret });
  assert.equal(tokenAsks.length, 1);
  assert.match(tokenAsks[0].body, /grant_type=client_credentials/);
  // Both the token request (absolute form) and the delivery (CONNECT to the checked address) went through tinyproxy.
  const log = tiny.log();
  assert.match(log, new RegExp(`CONNECT 127\\.0\\.0\\.1:${rxPort} `), log);
  assert.match(log, new RegExp(`POST http://127\\.0\\.0\\.1:${tokenPort}/oauth/token `), log);

  // The doctor's requests take the same way out: through the proxy, with the certificate and the token.
  const doctor = await srv.api('POST', `/v1/tenants/${ten}/endpoints/${ep.id}/doctor`, { body: {} });
  assert.equal(doctor.status, 200, JSON.stringify(doctor.body));
  const byDoctor = received.slice(1);
  assert.ok(byDoctor.length > 0, 'the doctor sent requests');
  for (const r of byDoctor) assert.deepEqual([r.peer, r.authorization], ['hookline-client', 'Bearer tok-1']);

  // At rest: neither the private key nor the client secret is in the database files.
  const keyLine = clientCert.key.toString().split('\n')[1];
  for (const f of readdirSync(srv.dir).filter((n) => n.startsWith('hookline.db'))) {
    const bytes = readFileSync(join(srv.dir, f)).toString('latin1');
    assert.equal(bytes.includes(keyLine), false, `${f} holds the private key`);
    assert.equal(bytes.includes('s3cret'), false, `${f} holds the client secret`);
  }
});

test('egress settings: refused before anything is stored, removable, and the certificate key must match', {
  skip: !haveOpenssl && !ci && 'openssl not installed',
}, async (t) => {
  const ca = testCa();
  t.after(() => ca.remove());
  const a = ca.issue('a', { usage: 'client' });
  const b = ca.issue('b', { usage: 'client' });
  const srv = await startTestServer({ config: { allowPrivateTargets: false } });
  t.after(() => srv.close());
  const ten = await srv.tenant();
  const url = 'https://hooks.example.com/in';
  const refusals: Array<[Record<string, unknown>, string]> = [
    [{ client_certificate: { certificate: a.cert.toString(), key: b.key.toString() } }, 'client_certificate_invalid'],
    [{ client_certificate: { certificate: 'nope', key: a.key.toString() } }, 'client_certificate_invalid'],
    [{ oauth2: { token_url: 'https://127.0.0.1/token', client_id: 'x', client_secret: 'y' } }, 'oauth_client_invalid'],
    [{ oauth2: { token_url: 'https://auth.example/token', client_id: 'x' } }, 'oauth_client_invalid'],
    [{ proxy: 'Not A Name' }, 'proxy_invalid'],
  ];
  for (const [fields, code] of refusals) {
    const r = await srv.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url, ...fields } });
    assert.deepEqual([r.status, r.body.error?.code], [400, code], JSON.stringify(fields));
  }
  assert.equal((await srv.api('GET', `/v1/tenants/${ten}/endpoints`)).body.items.length, 0, 'nothing was stored');

  const ep = await srv.api('POST', `/v1/tenants/${ten}/endpoints`, {
    body: { url, proxy: 'eu', oauth2: { token_url: 'https://auth.example/token', client_id: 'x', client_secret: 'y' } },
  });
  assert.equal(ep.status, 201, JSON.stringify(ep.body));
  const path = `/v1/tenants/${ten}/endpoints/${ep.body.id}`;
  // An edit without the secret keeps it; null removes a setting.
  const kept = await srv.api('PATCH', path, {
    body: { oauth2: { token_url: 'https://auth.example/v2/token', client_id: 'x2', scope: 's' } },
  });
  assert.deepEqual(kept.body.oauth2, {
    token_url: 'https://auth.example/v2/token',
    client_id: 'x2',
    scope: 's',
    audience: null,
    has_secret: true,
  });
  const listed = (await srv.api('GET', `/v1/tenants/${ten}/endpoints`)).body.items[0];
  assert.deepEqual([listed.proxy, listed.oauth2.client_id], ['eu', 'x2']);
  const cleared = await srv.api('PATCH', path, { body: { oauth2: null, proxy: null } });
  assert.deepEqual([cleared.body.proxy, cleared.body.oauth2, cleared.body.client_certificate], [null, null, null]);
});
