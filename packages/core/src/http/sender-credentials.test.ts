// The sender's endpoint credentials: a client certificate presented to a receiver that requires one (a test CA made
// with openssl), and OAuth2 client credentials against a loopback token server. Everything is on 127.0.0.1.
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { after, test } from 'node:test';
import type { TLSSocket } from 'node:tls';
import { startRecordingProxy } from '../../testing/recording-proxy.ts';
import { haveOpenssl, testCa } from '../../testing/test-certificates.ts';
import { VirtualClock } from '../clock.ts';
import type { LookupAll } from './guarded-lookup.ts';
import { createSender, type SenderOptions } from './sender.ts';

const ci = process.env.CI === 'true';
const needsOpenssl = { skip: !haveOpenssl && !ci && 'openssl CLI not found' };

const lookup: LookupAll = (hostname, _o, cb) => {
  if (hostname === 'hook.test' || hostname === 'auth.test') cb(null, [{ address: '127.0.0.1', family: 4 }]);
  else cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
};

async function listenOn(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}
function sender(extra: SenderOptions = {}) {
  const s = createSender({ allowHttp: true, allowPrivateTargets: true, lookup, ...extra });
  after(() => s.close());
  return s;
}
const post = (url: string, extra: object = {}) => ({
  url,
  headers: { 'X-Webhook-Id': 'evt_1' },
  body: Buffer.from('{}'),
  timeoutMs: 5000,
  endpointId: 'ep_1',
  ...extra,
});

test(
  'mTLS: a receiver that requires a client certificate from its CA gets it on every attempt, direct and through the proxy',
  needsOpenssl,
  async () => {
    const ca = testCa();
    after(() => ca.remove());
    const server = ca.issue('hook.test', { names: ['hook.test', '127.0.0.1'] });
    const client = ca.issue('hookline-client', { usage: 'client' });
    const peers: string[] = [];
    const rx = createHttpsServer(
      { key: server.key, cert: server.cert, ca: ca.cert, requestCert: true, rejectUnauthorized: true },
      (req, res) => {
        peers.push(String((req.socket as TLSSocket).getPeerCertificate().subject.CN));
        req.resume();
        req.on('end', () => res.writeHead(200).end('ok'));
      },
    );
    const port = await listenOn(rx);
    const url = `https://hook.test:${port}/in`;
    const without = await sender({ ca: ca.cert }).send(post(url));
    assert.equal(without.outcome, 'delivery_failure', 'no certificate: the receiver refuses the handshake');
    assert.equal(peers.length, 0);

    const certificate = { id: 'v1', cert: client.cert.toString(), key: client.key.toString() };
    const s = sender({ ca: ca.cert });
    const direct = await s.send(post(url, { clientCertificate: certificate }));
    assert.deepEqual([direct.outcome, direct.status], ['success', 200], direct.errorMessage ?? '');
    const proxy = await startRecordingProxy();
    after(() => proxy.close());
    const tunnelled = await sender({ ca: ca.cert, egress: { proxy: proxy.url } }).send(
      post(url, { clientCertificate: certificate }),
    );
    assert.deepEqual([tunnelled.outcome, tunnelled.status], ['success', 200], tunnelled.errorMessage ?? '');
    assert.equal(proxy.asks.length, 1);
    assert.deepEqual(peers, ['hookline-client', 'hookline-client']);
  },
);

interface TokenServer {
  url: string;
  asks: Array<{ authorization: string | undefined; form: URLSearchParams }>;
  answer: (n: number) => { status: number; json?: unknown };
}

async function tokenServer(answer: TokenServer['answer']): Promise<TokenServer> {
  const t: TokenServer = { url: '', asks: [], answer };
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      t.asks.push({
        authorization: req.headers.authorization,
        form: new URLSearchParams(Buffer.concat(chunks).toString()),
      });
      const a = t.answer(t.asks.length);
      res
        .writeHead(a.status, { 'content-type': 'application/json' })
        .end(a.json === undefined ? '' : JSON.stringify(a.json));
    });
  });
  t.url = `http://auth.test:${await listenOn(server)}/oauth/token`;
  return t;
}

/** A receiver that accepts only `Bearer <valid>` and answers 401 otherwise. */
async function bearerReceiver(valid: Set<string>) {
  const seen: Array<string | undefined> = [];
  const server = createHttpServer((req, res) => {
    seen.push(req.headers.authorization);
    req.resume();
    const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
    req.on('end', () => res.writeHead(valid.has(token) ? 200 : 401).end());
  });
  return { url: `http://hook.test:${await listenOn(server)}/in`, seen };
}

const client = (tokenUrl: string, id = 'ep_1 v1') => ({
  id,
  tokenUrl,
  clientId: 'hookline',
  clientSecret: 's3cret:+/',
  scope: 'webhooks.write',
  audience: 'https://api.example',
});

test('OAuth2: one token fetched with client credentials, sent as Bearer, cached until shortly before expiry', async () => {
  const clock = new VirtualClock();
  const tokens = await tokenServer((n) => ({
    status: 200,
    json: { access_token: `tok${n}`, token_type: 'Bearer', expires_in: 3600 },
  }));
  const rx = await bearerReceiver(new Set(['tok1', 'tok2', 'tok3']));
  const s = sender({ clock });
  const oauth2 = client(tokens.url);
  for (let i = 0; i < 3; i++) {
    const r = await s.send(post(rx.url, { oauth2, headers: { Authorization: 'Basic custom' } }));
    assert.equal(r.outcome, 'success', r.errorMessage ?? '');
  }
  assert.deepEqual(
    rx.seen,
    ['Bearer tok1', 'Bearer tok1', 'Bearer tok1'],
    'the token replaces any other Authorization',
  );
  assert.equal(tokens.asks.length, 1, 'cached');
  const ask = tokens.asks[0];
  assert.equal(ask.authorization, `Basic ${Buffer.from('hookline:s3cret%3A%2B%2F').toString('base64')}`);
  assert.deepEqual(Object.fromEntries(ask.form), {
    grant_type: 'client_credentials',
    scope: 'webhooks.write',
    audience: 'https://api.example',
  });
  clock.advance(3600_000 - 61_000);
  await s.send(post(rx.url, { oauth2 }));
  assert.equal(tokens.asks.length, 1, 'still good 61 s before expiry');
  clock.advance(2_000);
  await s.send(post(rx.url, { oauth2 }));
  assert.equal(tokens.asks.length, 2, 'refreshed within the last minute');
  assert.equal(rx.seen.at(-1), 'Bearer tok2');
  // New settings (another version): another token.
  await s.send(post(rx.url, { oauth2: client(tokens.url, 'ep_1 v2') }));
  assert.equal(tokens.asks.length, 3);
});

test('OAuth2: a 401 gets one fresh token and one more try; a second 401 is the receiver’s answer', async () => {
  const tokens = await tokenServer((n) => ({ status: 200, json: { access_token: `tok${n}`, expires_in: 3600 } }));
  const valid = new Set(['tok1']);
  const rx = await bearerReceiver(valid);
  const s = sender();
  const oauth2 = client(tokens.url);
  assert.equal((await s.send(post(rx.url, { oauth2 }))).outcome, 'success');
  valid.clear();
  valid.add('tok2'); // the receiver revoked tok1
  const refreshed = await s.send(post(rx.url, { oauth2 }));
  assert.deepEqual([refreshed.outcome, refreshed.status], ['success', 200]);
  assert.deepEqual(rx.seen.slice(1), ['Bearer tok1', 'Bearer tok2']);
  valid.clear();
  const refused = await s.send(post(rx.url, { oauth2 }));
  assert.deepEqual([refused.outcome, refused.status, refused.errorClass], ['client_error', 401, 'status']);
  assert.equal(tokens.asks.length, 3, 'exactly one refresh per attempt');
});

test('OAuth2: a failing token endpoint is oauth_token_failed and the receiver is never asked', async () => {
  const rx = await bearerReceiver(new Set(['tok1']));
  const cases: Array<[TokenServer['answer'], RegExp]> = [
    [() => ({ status: 500 }), /HTTP 500/],
    [() => ({ status: 401, json: { error: 'invalid_client' } }), /HTTP 401/],
    [() => ({ status: 200, json: { token_type: 'Bearer' } }), /without an access_token/],
    [() => ({ status: 200 }), /without a JSON body/],
  ];
  for (const [answer, message] of cases) {
    const tokens = await tokenServer(answer);
    const r = await sender().send(post(rx.url, { oauth2: client(tokens.url) }));
    assert.deepEqual([r.outcome, r.errorClass, r.status], ['delivery_failure', 'oauth_token_failed', null]);
    assert.match(r.errorMessage ?? '', message);
  }
  assert.equal(rx.seen.length, 0);
});

test('OAuth2: the token URL passes the same SSRF guard, and leaves through the same proxy', async () => {
  const proxy = await startRecordingProxy();
  after(() => proxy.close());
  const guarded = createSender({ lookup, egress: { proxy: proxy.url } });
  after(() => guarded.close());
  // The target is fine as far as this test goes; the token URL is private and refused before any packet.
  const r = await guarded.send(post('https://example.invalid/in', { oauth2: client('https://auth.test/token') }));
  assert.deepEqual([r.outcome, r.errorClass], ['delivery_failure', 'oauth_token_failed']);
  assert.match(r.errorMessage ?? '', /refused_address/);
  assert.deepEqual(proxy.asks, [], 'nothing reached the proxy');

  const tokens = await tokenServer((n) => ({ status: 200, json: { access_token: `tok${n}` } }));
  const rx = await bearerReceiver(new Set(['tok1']));
  const viaProxy = await sender({ egress: { proxy: proxy.url } }).send(post(rx.url, { oauth2: client(tokens.url) }));
  assert.equal(viaProxy.outcome, 'success', viaProxy.errorMessage ?? '');
  assert.deepEqual(
    (proxy.asks as Array<{ host: string | undefined }>).map((a) => a.host),
    [new URL(tokens.url).host, new URL(rx.url).host],
    'the token request and the attempt both went through the proxy',
  );
});
