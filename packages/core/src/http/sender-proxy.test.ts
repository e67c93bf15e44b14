// The sender through a forward proxy (docs/rules.md#egress-proxy): an in-test proxy that records what it was asked,
// and Debian's tinyproxy. Every target, proxy and receiver is on 127.0.0.1.
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { createServer as createNetServer } from 'node:net';
import { after, test } from 'node:test';
import { startRecordingProxy } from '../../testing/recording-proxy.ts';
import { haveOpenssl, selfSignedCertificate } from '../../testing/test-certificates.ts';
import { haveTinyproxy, startTinyproxy } from '../../testing/tinyproxy.ts';
import type { LookupAll } from './guarded-lookup.ts';
import { createSender, type SenderOptions } from './sender.ts';

const ci = process.env.CI === 'true';
const needsOpenssl = { skip: !haveOpenssl && !ci && 'openssl CLI not found' };

/** hook.test (and its subdomains) resolve to loopback without DNS; anything else is NXDOMAIN. */
const lookup: LookupAll = (hostname, _o, cb) => {
  if (hostname === 'hook.test' || hostname.endsWith('.hook.test')) cb(null, [{ address: '127.0.0.1', family: 4 }]);
  else cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
};

interface Receiver {
  port: number;
  requests: Array<{ url: string | undefined; host: string | undefined; proxyAuthorization: string | undefined }>;
}

async function listenOn(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

async function receiver(https: boolean): Promise<Receiver & { cert?: Buffer }> {
  const requests: Receiver['requests'] = [];
  const handle = (req: IncomingMessage, res: import('node:http').ServerResponse) => {
    req.resume();
    req.on('end', () => {
      requests.push({ url: req.url, host: req.headers.host, proxyAuthorization: req.headers['proxy-authorization'] });
      res.writeHead(200, { connection: 'close' }).end('ok');
    });
  };
  if (!https) {
    const server = createHttpServer(handle);
    return { port: await listenOn(server), requests };
  }
  const { key, cert } = selfSignedCertificate(['hook.test', '127.0.0.1']);
  const server = createHttpsServer({ key, cert }, handle);
  return { port: await listenOn(server), requests, cert };
}

function sender(extra: SenderOptions) {
  const s = createSender({ allowHttp: true, allowPrivateTargets: true, lookup, ...extra });
  after(() => s.close());
  return s;
}
const post = (url: string, proxy?: string) => ({
  url,
  headers: {},
  body: Buffer.from('{}'),
  timeoutMs: 5000,
  endpointId: 'ep_1',
  ...(proxy === undefined ? {} : { proxy }),
});

async function closedPort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

test(
  'https through the proxy: CONNECT names the checked address, TLS is verified against the URL host',
  needsOpenssl,
  async () => {
    const rx = await receiver(true);
    const proxy = await startRecordingProxy();
    after(() => proxy.close());
    const result = await sender({ ca: rx.cert, egress: { proxy: proxy.url } }).send(
      post(`https://hook.test:${rx.port}/in`),
    );
    assert.deepEqual(
      [result.outcome, result.status, result.errorClass],
      ['success', 200, null],
      result.errorMessage ?? '',
    );
    assert.deepEqual(
      proxy.asks.map((a) => [a.method, a.target]),
      [['CONNECT', `127.0.0.1:${rx.port}`]],
      'the proxy is asked for the address Hookline resolved and checked, never the name',
    );
    assert.equal(rx.requests[0].host, `hook.test:${rx.port}`);
    assert.equal(rx.requests[0].proxyAuthorization, undefined, 'proxy credentials never reach the receiver');
  },
);

test('plain http through the proxy: absolute form by checked address, Host names the URL host', async () => {
  const rx = await receiver(false);
  const proxy = await startRecordingProxy({ auth: 'hook:line' });
  after(() => proxy.close());
  const result = await sender({ egress: { proxy: proxy.url } }).send(post(`http://hook.test:${rx.port}/in?a=1`));
  assert.equal(result.outcome, 'success', result.errorMessage ?? '');
  assert.deepEqual(
    proxy.asks.map((a) => [a.method, a.target, a.host]),
    [['POST', `http://127.0.0.1:${rx.port}/in?a=1`, `hook.test:${rx.port}`]],
  );
  assert.equal(proxy.asks[0].proxyAuthorization, `Basic ${Buffer.from('hook:line').toString('base64')}`);
  assert.equal(rx.requests[0].url, '/in?a=1');
  assert.equal(rx.requests[0].proxyAuthorization, undefined);
});

test(
  'proxy failures have their own classes: auth (407), refusal (403), unreachable; a gateway error is the receiver’s',
  needsOpenssl,
  async () => {
    const rx = await receiver(true);
    const authed = await startRecordingProxy({ auth: 'hook:line' });
    const refusing = await startRecordingProxy({ refuseWith: 403 });
    after(() => authed.close());
    after(() => refusing.close());
    const url = `https://hook.test:${rx.port}/in`;
    const noCreds = await sender({ ca: rx.cert, egress: { proxy: authed.url.replace('hook:line@', '') } }).send(
      post(url),
    );
    assert.deepEqual(
      [noCreds.outcome, noCreds.errorClass, noCreds.status],
      ['delivery_failure', 'proxy_auth_failed', null],
    );
    const wrong = await sender({ ca: rx.cert, egress: { proxy: authed.url.replace('line', 'nope') } }).send(post(url));
    assert.equal(wrong.errorClass, 'proxy_auth_failed');
    const right = await sender({ ca: rx.cert, egress: { proxy: authed.url } }).send(post(url));
    assert.equal(right.outcome, 'success', right.errorMessage ?? '');

    const refused = await sender({ ca: rx.cert, egress: { proxy: refusing.url } }).send(post(url));
    assert.deepEqual([refused.outcome, refused.errorClass], ['delivery_failure', 'proxy_refused']);
    assert.match(refused.errorMessage ?? '', /HTTP 403/);

    const gone = await sender({ ca: rx.cert, egress: { proxy: `http://127.0.0.1:${await closedPort()}` } }).send(
      post(url),
    );
    assert.deepEqual([gone.outcome, gone.errorClass], ['delivery_failure', 'proxy_unreachable']);

    // The proxy is fine; the receiver is down: the proxy's 502 is the receiver's connection failure.
    const ok = await startRecordingProxy();
    after(() => ok.close());
    const down = await sender({ egress: { proxy: ok.url } }).send(post(`https://hook.test:${await closedPort()}/in`));
    assert.deepEqual([down.outcome, down.errorClass], ['delivery_failure', 'connection']);
  },
);

test('no_proxy by name, suffix and CIDR goes direct; an endpoint may opt out or name another proxy', async () => {
  const rx = await receiver(false);
  const main = await startRecordingProxy();
  const other = await startRecordingProxy();
  after(() => main.close());
  after(() => other.close());
  const url = `http://hook.test:${rx.port}/in`;
  for (const noProxy of [['hook.test'], ['.hook.test'], ['127.0.0.0/8'], ['*']]) {
    const r = await sender({ egress: { proxy: main.url, noProxy } }).send(post(url));
    assert.equal(r.outcome, 'success', `${noProxy}: ${r.errorMessage}`);
  }
  const sub = await sender({ egress: { proxy: main.url, noProxy: ['hook.test'] } }).send(
    post(`http://api.hook.test:${rx.port}/in`),
  );
  assert.equal(sub.outcome, 'success');
  assert.equal(main.asks.length, 0, 'nothing no_proxy lists went through the proxy');
  assert.equal(rx.requests.length, 5);

  const s = sender({ egress: { proxy: main.url, proxies: { other: other.url } } });
  assert.equal((await s.send(post(url, 'none'))).outcome, 'success');
  assert.equal(main.asks.length, 0, '"none" goes direct');
  assert.equal((await s.send(post(url, 'other'))).outcome, 'success');
  assert.deepEqual([main.asks.length, other.asks.length], [0, 1], 'a named proxy is used as named');
  assert.equal((await s.send(post(url))).outcome, 'success');
  assert.equal(main.asks.length, 1, 'unset follows the default proxy');
  const unknown = await s.send(post(url, 'missing'));
  assert.deepEqual([unknown.outcome, unknown.errorClass], ['delivery_failure', 'proxy_refused']);
});

test('SSRF with a proxy configured: every private form is refused before the proxy hears a word', async () => {
  const proxy = await startRecordingProxy();
  after(() => proxy.close());
  const rebinding: LookupAll = (hostname, _o, cb) =>
    cb(null, hostname.startsWith('v6.') ? [{ address: '::1', family: 6 }] : [{ address: '10.0.0.7', family: 4 }]);
  const s = createSender({ lookup: rebinding, egress: { proxy: proxy.url } });
  after(() => s.close());
  const urls = [
    'https://127.0.0.1/hook',
    'https://0x7f000001/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://[fd00::1]/hook',
    'https://localhost/hook',
    'https://metadata.google.internal/',
    'https://rebind.example/hook',
    'https://v6.rebind.example/hook',
  ];
  for (const url of urls) {
    const r = await s.send(post(url));
    assert.deepEqual([r.outcome, r.errorClass], ['delivery_failure', 'refused_address'], `${url}: ${r.errorMessage}`);
  }
  const h = createSender({ lookup: rebinding, allowHttp: true, egress: { proxy: proxy.url } });
  after(() => h.close());
  const plain = await h.send(post('http://rebind.example/hook'));
  assert.equal(plain.errorClass, 'refused_address', 'absolute form checks first too');
  assert.deepEqual(proxy.asks, [], 'the proxy recorded no request');
});

const realProxy = { skip: (!haveTinyproxy || !haveOpenssl) && !ci && 'tinyproxy or openssl not installed' };

test(
  'through tinyproxy: https by CONNECT, http by absolute form; its own refusals and auth are classed',
  realProxy,
  async (t) => {
    assert.ok(haveTinyproxy && haveOpenssl, 'CI=true without tinyproxy/openssl (scripts/services.sh installs them)');
    const https = await receiver(true);
    const http = await receiver(false);
    const down = await closedPort();
    const tiny = await startTinyproxy(t.after.bind(t), { connectPorts: [https.port, down] });
    const s = sender({ ca: https.cert, egress: { proxy: tiny.url } });
    const secure = await s.send(post(`https://hook.test:${https.port}/in`));
    assert.deepEqual([secure.outcome, secure.status], ['success', 200], secure.errorMessage ?? '');
    assert.equal(https.requests[0].host, `hook.test:${https.port}`);
    const plain = await s.send(post(`http://hook.test:${http.port}/plain`));
    assert.deepEqual([plain.outcome, plain.status], ['success', 200], plain.errorMessage ?? '');
    assert.equal(http.requests[0].url, '/plain');
    // tinyproxy cannot reach the receiver (its CONNECT answer is 500 "Unable to connect"): the receiver's failure.
    const unreachable = await s.send(post(`https://hook.test:${down}/in`));
    assert.deepEqual([unreachable.outcome, unreachable.errorClass], ['delivery_failure', 'connection']);

    // CONNECT to a port tinyproxy does not allow: its refusal, not the receiver's.
    const other = await receiver(true);
    const refused = await sender({ ca: other.cert, egress: { proxy: tiny.url } }).send(
      post(`https://hook.test:${other.port}/in`),
    );
    assert.deepEqual(
      [refused.outcome, refused.errorClass],
      ['delivery_failure', 'proxy_refused'],
      refused.errorMessage ?? '',
    );
    assert.equal(other.requests.length, 0);

    const locked = await startTinyproxy(t.after.bind(t), { auth: 'hook:line', connectPorts: [https.port] });
    const bare = locked.url.replace('hook:line@', '');
    const noAuth = await sender({ ca: https.cert, egress: { proxy: bare } }).send(
      post(`https://hook.test:${https.port}/in`),
    );
    assert.equal(noAuth.errorClass, 'proxy_auth_failed', noAuth.errorMessage ?? '');
    const noAuthPlain = await sender({ egress: { proxy: bare } }).send(post(`http://hook.test:${http.port}/in`));
    assert.equal(noAuthPlain.errorClass, 'proxy_auth_failed', noAuthPlain.errorMessage ?? '');
    const authed = await sender({ ca: https.cert, egress: { proxy: locked.url } }).send(
      post(`https://hook.test:${https.port}/in`),
    );
    assert.equal(authed.outcome, 'success', authed.errorMessage ?? '');
  },
);
