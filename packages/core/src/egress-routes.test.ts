import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EgressRoutes, NoProxyList, parseProxyUrl } from './egress-routes.ts';

test('a proxy URL: host, port, Basic credentials decoded, shown without them', () => {
  const p = parseProxyUrl('http://us%40er:p%3Ass@[::1]:3128');
  assert.deepEqual(p, {
    name: 'default',
    host: '::1',
    port: 3128,
    authorization: `Basic ${Buffer.from('us@er:p:ss').toString('base64')}`,
    display: 'http://[::1]:3128',
  });
  assert.equal(parseProxyUrl('http://squid').port, 80);
  assert.throws(() => parseProxyUrl('https://squid:3128'), /must be an http:\/\/ URL/);
  assert.throws(() => parseProxyUrl('http://squid:3128/path'), /no path/);
  assert.throws(() => parseProxyUrl('not a url'), /not a URL/);
});

test('no_proxy: a name covers its subdomains but not a longer name; addresses and CIDRs by the checked address', () => {
  const list = new NoProxyList([
    'hook.test',
    '.corp.example',
    '*.svc.local',
    '10.0.0.0/8',
    '2001:db8::/32',
    '192.0.2.7',
  ]);
  for (const host of ['hook.test', 'api.hook.test', 'HOOK.TEST.', 'a.corp.example', 'corp.example', 'x.svc.local'])
    assert.equal(list.matchesHost(host), true, host);
  for (const host of ['ook.test', 'hook.test.evil', 'notcorp.example', 'example.com'])
    assert.equal(list.matchesHost(host), false, host);
  assert.equal(list.matchesHost('10.1.2.3'), true, 'an address literal in the URL');
  assert.equal(list.matchesAddress('10.255.0.1'), true);
  assert.equal(list.matchesAddress('11.0.0.1'), false);
  assert.equal(list.matchesAddress('2001:db8::5'), true);
  assert.equal(list.matchesAddress('192.0.2.7'), true);
  assert.equal(new NoProxyList(['*']).matchesHost('anything.example'), true);
  assert.throws(() => new NoProxyList(['10.0.0.0/33']), /bad prefix length/);
  assert.throws(() => new NoProxyList(['http://x']), /not a host name/);
});

test('choose: unset takes the default unless no_proxy lists the host; none is direct; a name is used as named', () => {
  const routes = new EgressRoutes({
    proxy: 'http://main:3128',
    noProxy: ['internal.example'],
    proxies: { eu: 'http://eu:3128' },
  });
  assert.equal(routes.choose('hooks.example.com', undefined)?.name, 'default');
  assert.equal(routes.choose('hooks.example.com', 'default')?.name, 'default');
  assert.equal(routes.choose('a.internal.example', null), null);
  assert.equal(routes.choose('hooks.example.com', 'none'), null);
  assert.equal(routes.choose('a.internal.example', 'eu')?.name, 'eu', 'no_proxy is for the default');
  assert.equal(routes.choose('hooks.example.com', 'us'), undefined, 'an unknown name');
  assert.deepEqual(routes.names(), ['eu']);
  assert.equal(new EgressRoutes().any, false);
  assert.throws(() => new EgressRoutes({ proxies: { none: 'http://x:1' } }), /not "none"/);
});
