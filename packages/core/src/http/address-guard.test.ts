import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkEndpointUrl, isPublicAddress } from './address-guard.ts';
import { createGuardedLookup, type LookupAll, REFUSED_ADDRESS_CODE } from './guarded-lookup.ts';

const NON_PUBLIC = [
  '0.0.0.0',
  '0.1.2.3',
  '10.0.0.1',
  '10.255.255.255',
  '100.64.0.1',
  '100.127.255.254',
  '127.0.0.1',
  '127.255.0.1',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.0.0.8',
  '192.0.2.1',
  '192.88.99.1',
  '192.168.1.1',
  '198.18.0.1',
  '198.19.255.255',
  '198.51.100.7',
  '203.0.113.9',
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  '::',
  '::1',
  '0:0:0:0:0:0:0:1',
  'fe80::1',
  'fe80::1%eth0',
  'febf::1',
  'fec0::1',
  'fc00::1',
  'fd12:3456::1',
  'ff02::1',
  '::ffff:10.0.0.1',
  '::ffff:a00:1',
  '::ffff:127.0.0.1',
  '::ffff:169.254.169.254',
  '::10.0.0.1',
  '::127.0.0.1',
  '64:ff9b::10.0.0.1',
  '64:ff9b::7f00:1',
  '64:ff9b:1::1',
  '2002:0a00:0001::1',
  '2002:7f00:1::',
  '2001:db8::1',
  '2001::1',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  '2001:2::1',
  '3fff::1',
  '100::1',
  '[::1]',
  // not addresses at all
  '',
  'localhost',
  '1.2.3',
  '1.2.3.4.5',
  '256.1.1.1',
  '01.2.3.4x',
  '1:2:3:4:5:6:7:8:9',
  '1::2::3',
  'gggg::1',
  '::ffff:1.2.3.256',
];
const PUBLIC = [
  '1.1.1.1',
  '8.8.8.8',
  '93.184.216.34',
  '100.63.255.255',
  '100.128.0.1',
  '172.15.255.255',
  '172.32.0.1',
  '169.253.0.1',
  '192.0.1.1',
  '192.169.0.1',
  '198.17.255.255',
  '198.20.0.1',
  '223.255.255.255',
  '9.255.255.255',
  '11.0.0.0',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001:80b::200e',
  '::ffff:8.8.8.8',
  '::ffff:808:808',
  '64:ff9b::8.8.8.8',
  '2002:0808:0808::1',
  '2001:200::1',
  '3fff:1000::1',
  '[2606:4700:4700::1111]',
];

test('isPublicAddress refuses every non-public range and accepts global unicast', () => {
  for (const ip of NON_PUBLIC) assert.equal(isPublicAddress(ip), false, ip);
  for (const ip of PUBLIC) assert.equal(isPublicAddress(ip), true, ip);
});

test('checkEndpointUrl applies docs/rules.md#endpoint-url', () => {
  const cases: Array<[string, { allowHttp?: boolean; allowPrivateTargets?: boolean }, string]> = [
    ['https://hooks.example.com/path?q=1', {}, 'ok'],
    ['https://user:pa%20ss@hooks.example.com/', {}, 'ok'],
    ['https://93.184.216.34:8443/x', {}, 'ok'],
    ['https://[2606:4700:4700::1111]/x', {}, 'ok'],
    ['http://hooks.example.com/', {}, 'url_must_be_https'],
    ['ftp://hooks.example.com/', {}, 'url_scheme_unsupported'],
    ['file:///etc/passwd', {}, 'url_scheme_unsupported'],
    ['wss://hooks.example.com/', { allowHttp: true }, 'url_scheme_unsupported'],
    ['http://hooks.example.com/', { allowHttp: true }, 'ok'],
    ['ftp://hooks.example.com/', { allowHttp: true }, 'url_scheme_unsupported'],
    ['/relative/path', {}, 'url_invalid'],
    ['not a url', {}, 'url_invalid'],
    ['', {}, 'url_invalid'],
    [`https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`, {}, 'ok'],
    [`https://example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}`, {}, 'url_too_long'],
    ['https://localhost/', {}, 'url_private_address'],
    ['https://LOCALHOST./', {}, 'url_private_address'],
    ['https://api.localhost:8080/', {}, 'url_private_address'],
    ['https://127.0.0.1/', {}, 'url_private_address'],
    ['https://2130706433/', {}, 'url_private_address'], // WHATWG normalises to 127.0.0.1
    ['https://0x7f.1/', {}, 'url_private_address'],
    ['https://10.1.2.3/', {}, 'url_private_address'],
    ['https://169.254.169.254/latest/meta-data', {}, 'url_private_address'],
    ['https://[::1]/', {}, 'url_private_address'],
    ['https://[::ffff:10.0.0.1]/', {}, 'url_private_address'],
    ['https://[fd00::1]/', {}, 'url_private_address'],
    ['https://127.0.0.1/', { allowPrivateTargets: true }, 'ok'],
    ['https://localhost/', { allowPrivateTargets: true }, 'ok'],
  ];
  for (const [url, rules, expected] of cases) {
    const r = checkEndpointUrl(url, rules);
    assert.equal(r.ok ? 'ok' : r.code, expected, url.slice(0, 80));
    if (!r.ok) assert.ok(r.message.length > 0);
  }
  const refused = checkEndpointUrl('http://x.example/');
  assert.equal(refused.ok ? '' : refused.message, 'url must be https');
  // The scheme is named as the problem, with the scheme itself in the message and the params.
  const ftp = checkEndpointUrl('ftp://hooks.example.com/');
  assert.deepEqual(ftp.ok ? null : [ftp.message, ftp.params], [
    'url scheme ftp is not supported: endpoint URLs are https:// (http:// only where the server allows it)',
    { scheme: 'ftp' },
  ]);
});

function run(lookup: LookupAll, hostname: string, allowPrivateTargets = false, all = true) {
  const guarded = createGuardedLookup({ lookup, allowPrivateTargets });
  return new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
    guarded(hostname, { all }, (err, address, family) => resolve({ err, address, family })),
  );
}
const resolvesTo =
  (...ips: string[]): LookupAll =>
  (_h, _o, cb) =>
    cb(
      null,
      ips.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );

test('guarded lookup refuses non-public answers before any socket exists, keeps public ones', async () => {
  const refused = await run(resolvesTo('10.1.2.3'), 'rebind.example');
  assert.equal(refused.err?.code, REFUSED_ADDRESS_CODE);
  assert.match(refused.err!.message, /10\.1\.2\.3/);
  assert.equal((await run(resolvesTo('::ffff:192.168.0.1', 'fe80::1'), 'x.example')).err?.code, REFUSED_ADDRESS_CODE);
  const mixed = await run(resolvesTo('10.0.0.1', '93.184.216.34'), 'mixed.example');
  assert.equal(mixed.err, null);
  assert.deepEqual(mixed.address, [{ address: '93.184.216.34', family: 4 }]);
  const single = await run(resolvesTo('10.0.0.1', '2606:4700::1'), 'mixed.example', false, false);
  assert.deepEqual([single.address, single.family], ['2606:4700::1', 6]);
  let asked = false;
  const local = await run((_h, _o, cb) => {
    asked = true;
    cb(null, []);
  }, 'localhost');
  assert.equal(local.err?.code, REFUSED_ADDRESS_CODE);
  assert.equal(asked, false, 'localhost is refused without resolving');
  assert.equal((await run(resolvesTo('127.0.0.1'), 'localhost', true)).err, null);
  const dns = await run(
    (h, _o, cb) => cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${h}`), { code: 'ENOTFOUND' }), []),
    'nope.example',
  );
  assert.equal(dns.err?.code, 'ENOTFOUND');
});

test('isPublicAddress judges an embedded IPv4 up to the edges of its range, in every form that embeds one', () => {
  // [address, public?]: 100.64.0.0/10 and 198.18.0.0/15 edges, as 6to4, NAT64, IPv4-mapped and IPv4-compatible.
  const cases: Array<[string, boolean]> = [
    ['2002:6440::1', false],
    ['2002:647f:ffff::1', false],
    ['2002:643f:ffff::1', true],
    ['2002:6480::1', true],
    ['64:ff9b::6440:1', false],
    ['64:ff9b::647f:ffff', false],
    ['64:ff9b::643f:ffff', true],
    ['64:ff9b::c0a8:1', false],
    ['::ffff:c612:1', false],
    ['::ffff:c613:ffff', false],
    ['::ffff:c614:1', true],
    ['::ffff:c611:ffff', true],
    ['::808:808', true],
    ['::c0a8:1', false],
    ['::ffff:0.0.0.1', false],
    // Teredo and the rest of 2001::/23, and the edges of 2000::/3.
    ['2001:0:4136:e378::1', false],
    ['2001:1ff:ffff::1', false],
    ['2001:200::1', true],
    ['1fff:ffff::1', false],
    ['4000::1', false],
    ['2000::1', true],
    ['3fff:fff:ffff::1', false],
    ['3fff:1000::1', true],
    ['fe80::1%25eth0', false],
    ['2606:4700::1%eth0', true],
  ];
  for (const [ip, expected] of cases) assert.equal(isPublicAddress(ip), expected, ip);
});
