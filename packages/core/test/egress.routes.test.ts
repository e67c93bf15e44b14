// Which way a delivery leaves, through the engine (docs/rules.md#egress-proxy, docs/rules.md#egress-failures): the
// configured proxy unless no_proxy lists the host or the endpoint says `none`, a named proxy as named; an unknown
// name fails the attempt as Hookline's own (the delivery retries, the endpoint's health does not hear of it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LookupAll } from '../src/http/guarded-lookup.ts';
import { createSender } from '../src/http/sender.ts';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';
import { startRecordingProxy } from '../testing/recording-proxy.ts';

/** *.test names are this machine, without DNS. */
const lookup: LookupAll = (hostname, _o, cb) => {
  if (hostname.endsWith('.test')) cb(null, [{ address: '127.0.0.1', family: 4 }]);
  else cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
};

test('each endpoint leaves by its route: the default proxy, no_proxy and `none` direct, a named proxy as named', async (t) => {
  const main = await startRecordingProxy();
  const eu = await startRecordingProxy();
  t.after(() => main.close());
  t.after(() => eu.close());
  const rx = await startReceiver();
  t.after(() => rx.close());
  const port = new URL(rx.url).port;
  const sender = createSender({
    allowHttp: true,
    allowPrivateTargets: true,
    lookup,
    egress: { proxy: main.url, noProxy: ['direct.test'], proxies: { eu: eu.url } },
  });
  const e = await testEngine({ sender, lookup });
  t.after(() => e.close());
  const routes: Array<[string, string, string | undefined]> = [
    ['proxied', `http://hook.test:${port}/proxied`, undefined],
    ['listed', `http://api.direct.test:${port}/listed`, undefined],
    ['opted-out', `http://hook.test:${port}/opted-out`, 'none'],
    ['named', `http://hook.test:${port}/named`, 'eu'],
    ['unknown', `http://hook.test:${port}/unknown`, 'missing'],
  ];
  const ids: Record<string, string> = {};
  for (const [name, url, proxy] of routes) {
    const { endpoint } = await e.engine.endpoints.create(e.tenantId, {
      url,
      event_types: [`route.${name}`],
      ...(proxy === undefined ? {} : { proxy }),
    });
    ids[name] = endpoint.id;
  }
  const deliveries: Record<string, string> = {};
  for (const [name] of routes) {
    const r = await e.engine.events.accept(e.tenantId, { type: `route.${name}`, data: {} });
    deliveries[name] = r.deliveries[0].id;
  }
  await e.engine.runDue();
  assert.deepEqual(rx.received.map((r) => r.url).sort(), ['/listed', '/named', '/opted-out', '/proxied']);
  assert.deepEqual(
    main.asks.map((a) => a.target),
    [`http://127.0.0.1:${port}/proxied`],
    'only the endpoint that follows the configuration went through the default proxy',
  );
  assert.deepEqual(
    eu.asks.map((a) => a.target),
    [`http://127.0.0.1:${port}/named`],
  );
  // A proxy name the configuration does not know: Hookline's egress failed, not the receiver.
  const { delivery, attempts } = await e.engine.deliveries.detail(e.tenantId, deliveries.unknown!);
  assert.equal(delivery.status, 'pending', 'it retries on its ladder');
  assert.equal(attempts[0]!.errorClass, 'proxy_refused');
  const ep = await e.engine.endpoints.get(e.tenantId, ids.unknown!);
  assert.deepEqual([ep.status, ep.failingSince], ['active', null], 'its health does not hear of it');
});
