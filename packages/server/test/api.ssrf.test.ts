// SSRF through the whole server with production settings (no --allow-http, no --allow-private-targets): every
// non-public URL form is refused at registration with its code, and a public-looking name whose DNS answers a
// private address (rebinding) is refused at connect time, before any socket is opened. The suite runs twice: direct,
// and with HOOKLINE_EGRESS_PROXY set to an in-test proxy that must record no request (docs/rules.md#egress-proxy).
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { test } from 'node:test';
import type { LookupAll } from '@hookline/core';
import { type RecordingProxy, startRecordingProxy } from '@hookline/core/testing';
import { startTestServer, until } from './server-harness.ts';

const PRODUCTION = { allowHttp: false, allowPrivateTargets: false };

/** Every form a private, loopback, link-local, ULA or metadata target can take in a URL. */
const PRIVATE_FORMS = [
  'https://127.0.0.1/hook',
  'https://127.1/hook',
  'https://0177.0.0.1/hook',
  'https://0x7f.0.0.1/hook',
  'https://0x7f000001/hook',
  'https://2130706433/hook',
  'https://017700000001/hook',
  'https://127.0.0.1.:8443/hook',
  'https://0.0.0.0/hook',
  'https://0/hook',
  'https://10.0.0.1/hook',
  'https://10.1/hook',
  'https://172.16.0.1/hook',
  'https://192.168.1.1/hook',
  'https://100.64.0.1/hook',
  'https://169.254.169.254/latest/meta-data/',
  'https://0xa9fea9fe/',
  'https://2852039166/',
  'https://[::1]/hook',
  'https://[::]/hook',
  'https://[0:0:0:0:0:0:0:1]/hook',
  'https://[::ffff:127.0.0.1]/hook',
  'https://[::ffff:7f00:1]/hook',
  'https://[::ffff:169.254.169.254]/',
  'https://[::ffff:10.0.0.1]/hook',
  'https://[64:ff9b::127.0.0.1]/hook',
  'https://[fd00::1]/hook',
  'https://[fc00::1]/hook',
  'https://[fe80::1]/hook',
  'https://[2002:7f00:1::]/hook',
  'https://localhost/hook',
  'https://LOCALHOST./hook',
  'https://api.localhost/hook',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://metadata.google.internal./',
  'https://metadata/',
  'https://instance-data/',
  'https://user:pw@127.0.0.1/hook',
  'https://%31%32%37.0.0.1/hook',
];

/** The two ways out the suite runs under: direct, and through a recording proxy set as an operator would. */
const ROUTES = ['direct', 'proxy'] as const;
async function egress(
  route: (typeof ROUTES)[number],
): Promise<{ env: NodeJS.ProcessEnv; proxy: RecordingProxy | null }> {
  if (route === 'direct') return { env: {}, proxy: null };
  const proxy = await startRecordingProxy();
  return { env: { HOOKLINE_EGRESS_PROXY: proxy.url }, proxy };
}

for (const route of ROUTES) {
  test(`${route}: registration refuses every private, loopback, link-local, ULA, mapped, numeric-form and metadata URL with url_private_address`, async () => {
    const { env, proxy } = await egress(route);
    const t = await startTestServer({ config: PRODUCTION, env });
    try {
      const ten = await t.tenant();
      for (const url of PRIVATE_FORMS) {
        const r = await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url } });
        assert.equal(r.status, 400, `${url}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.error.code, 'url_private_address', url);
      }
      assert.equal(
        (await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: 'http://hooks.example.com/in' } })).body
          .error.code,
        'url_must_be_https',
      );
      // Editing the URL of an accepted endpoint goes through the same check.
      const ok = await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: 'https://hooks.example.com/in' } });
      assert.equal(ok.status, 201);
      for (const url of ['https://[::ffff:127.0.0.1]/', 'https://0x7f000001/', 'https://metadata.google.internal/']) {
        const r = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${ok.body.id}`, { body: { url } });
        assert.deepEqual([r.status, r.body.error?.code], [400, 'url_private_address'], url);
      }
      assert.equal(
        (await t.api('GET', `/v1/tenants/${ten}/endpoints`)).body.items.length,
        1,
        'nothing refused was stored',
      );
      assert.deepEqual(proxy?.asks ?? [], [], 'the proxy was asked nothing');
    } finally {
      await t.close();
      await proxy?.close();
    }
  });

  test(`${route}: DNS rebinding: a public-looking name answering a loopback address is refused at connect, before any socket opens`, async () => {
    const { env, proxy } = await egress(route);
    // A live listener on loopback: had the guard let the name through, it would count the connection.
    let connections = 0;
    const trap = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
    const port = (trap.address() as AddressInfo).port;
    // The injected resolver answers only loopback forms, so even a broken guard can never send a packet off the machine.
    const answers: Record<string, Array<{ address: string; family: number }>> = {
      'hooks.rebind.example': [{ address: '127.0.0.1', family: 4 }],
      'v6.rebind.example': [{ address: '::1', family: 6 }],
      'mapped.rebind.example': [{ address: '::ffff:127.0.0.1', family: 6 }],
    };
    const asked: string[] = [];
    const lookup: LookupAll = (hostname, _o, cb) => {
      asked.push(hostname);
      const a = answers[hostname];
      if (a) cb(null, a);
      else cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    };
    // Every client socket this process opens, and where it connected.
    const connected: string[] = [];
    const onSocket = (msg: unknown) => {
      const socket = (msg as { socket: Socket }).socket;
      socket.once('connect', () => connected.push(`${socket.remoteAddress}:${socket.remotePort}`));
    };
    subscribe('net.client.socket', onSocket);
    const t = await startTestServer({ config: PRODUCTION, lookup, env });
    try {
      const ten = await t.tenant();
      const names = Object.keys(answers);
      const deliveries: string[] = [];
      for (const name of names) {
        const ep = await t.api('POST', `/v1/tenants/${ten}/endpoints`, {
          body: { url: `https://${name}:${port}/hook`, event_types: [name] },
        });
        assert.equal(
          ep.status,
          201,
          'a public-looking name is accepted at registration; its address is checked at connect',
        );
        const ev = await t.api('POST', `/v1/tenants/${ten}/events`, { body: { type: name, data: {} } });
        assert.equal(ev.status, 202);
        deliveries.push(ev.body.deliveries[0].id);
      }
      for (const id of deliveries) {
        const d = await until(
          () => t.api('GET', `/v1/tenants/${ten}/deliveries/${id}`),
          (r) => r.body.attempts?.length >= 1,
        );
        const a = d.body.attempts[0];
        assert.equal(a.error_class, 'refused_address', JSON.stringify(a));
        assert.equal(a.outcome, 'delivery_failure');
        assert.equal(a.response_status, null);
      }
      assert.deepEqual([...new Set(asked)].sort(), names.sort(), 'each name was resolved through the injected lookup');
      assert.equal(connections, 0, 'no connection reached the loopback listener');
      const toTrap = connected.filter((c) => c.endsWith(`:${port}`));
      assert.deepEqual(toTrap, [], 'no socket connected to the rebinding target');
      for (const c of connected)
        assert.match(c, /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1):/, `a socket connected off loopback: ${c}`);
      if (proxy) {
        assert.deepEqual(proxy.asks, [], 'the proxy recorded no request: every refused target was refused before it');
        assert.deepEqual(
          connected.filter((c) => c.endsWith(`:${proxy.port}`)),
          [],
          'no socket even reached the proxy',
        );
      }
    } finally {
      unsubscribe('net.client.socket', onSocket);
      await t.close();
      await new Promise((r) => trap.close(r));
      await proxy?.close();
    }
  });
}
