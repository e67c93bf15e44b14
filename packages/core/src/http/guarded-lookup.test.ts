import assert from 'node:assert/strict';
import type { LookupAddress, LookupAllOptions } from 'node:dns';
import { test } from 'node:test';
import { createGuardedLookup, defaultLookupAll, type LookupAll, RefusedAddressError } from './guarded-lookup.ts';

type Answer = { err: NodeJS.ErrnoException | null; address: unknown; family?: number };

function run(
  lookup: LookupAll,
  hostname: string,
  options: { all?: boolean; family?: number } = {},
  allowPrivateTargets?: boolean,
) {
  const guarded = createGuardedLookup({ lookup, allowPrivateTargets });
  return new Promise<Answer>((resolve) =>
    guarded(hostname, options, (err, address, family) => resolve({ err, address, family })),
  );
}
const resolvesTo =
  (...ips: string[]): LookupAll =>
  (_h, _o, cb) =>
    cb(
      null,
      ips.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );

test('refusals name the host and the addresses, with the refused code, and answer in the shape asked for', async () => {
  const all = await run(resolvesTo('10.0.0.1', 'fe80::1'), 'rebind.example', { all: true });
  assert.ok(all.err instanceof RefusedAddressError);
  assert.equal(all.err.code, 'ERR_HOOKLINE_REFUSED_ADDRESS');
  assert.equal(all.err.name, 'RefusedAddressError');
  assert.equal(
    all.err.message,
    'refused to connect to rebind.example: resolves only to non-public addresses (10.0.0.1, fe80::1)',
  );
  assert.deepEqual([all.err.hostname, all.err.addresses], ['rebind.example', ['10.0.0.1', 'fe80::1']]);
  assert.deepEqual(all.address, []);
  const one = await run(resolvesTo('10.0.0.1'), 'rebind.example');
  assert.equal(one.address, '');

  const local = await run(resolvesTo('127.0.0.1'), 'api.localhost', { all: true });
  assert.equal(local.err?.message, 'refused to connect to api.localhost: a name for this machine');
  assert.deepEqual((local.err as RefusedAddressError).addresses, []);
  assert.deepEqual(local.address, []);
  assert.equal((await run(resolvesTo('127.0.0.1'), 'localhost')).address, '');
});

test('the resolver is always asked for every address, keeping the caller’s other options', async () => {
  let seen: LookupAllOptions | undefined;
  const spy: LookupAll = (_h, o, cb) => {
    seen = o;
    cb(null, [{ address: '93.184.216.34', family: 4 }]);
  };
  const one = await run(spy, 'x.example', { family: 4 });
  assert.deepEqual(seen, { family: 4, all: true });
  assert.deepEqual([one.err, one.address, one.family], [null, '93.184.216.34', 4]);
  await run(spy, 'x.example', { all: true });
  assert.deepEqual(seen, { all: true });
});

test('an empty answer is ENOTFOUND naming the host; a resolver error passes through; both answer in the shape asked for', async () => {
  const empty: LookupAll = (_h, _o, cb) => cb(null, []);
  const none = await run(empty, 'gone.example', { all: true });
  assert.equal(none.err?.code, 'ENOTFOUND');
  assert.equal(none.err?.message, 'getaddrinfo ENOTFOUND gone.example');
  assert.equal((none.err as NodeJS.ErrnoException & { hostname?: string }).hostname, 'gone.example');
  assert.deepEqual(none.address, []);
  assert.equal((await run(empty, 'gone.example')).address, '');
  const failure = Object.assign(new Error('getaddrinfo EAI_AGAIN x.example'), { code: 'EAI_AGAIN' });
  const failing: LookupAll = (_h, _o, cb) => cb(failure, [{ address: '93.184.216.34', family: 4 }]);
  const r = await run(failing, 'x.example', { all: true });
  assert.equal(r.err, failure, 'an error wins over any addresses');
  assert.deepEqual(r.address, []);
});

test('with private targets allowed every address passes, in order', async () => {
  const r = await run(resolvesTo('127.0.0.1', '10.0.0.1'), 'localhost', { all: true }, true);
  assert.deepEqual(r.address, [
    { address: '127.0.0.1', family: 4 },
    { address: '10.0.0.1', family: 4 },
  ]);
});

test('the default resolver is dns.lookup (an IP literal resolves to itself, no query sent)', async () => {
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    defaultLookupAll('127.0.0.1', { all: true }, (err, a) => (err ? reject(err) : resolve(a))),
  );
  assert.deepEqual(addresses, [{ address: '127.0.0.1', family: 4 }]);
});
