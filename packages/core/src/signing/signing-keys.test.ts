import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signingKey } from './signing-keys.ts';

test('standard secrets must be base64 throughout: junk before or after valid characters is refused', () => {
  for (const bad of ['whsec_%%%QUJD', 'whsec_QUJD%', '%QUJD', 'whsec_QU JD']) {
    assert.throws(() => signingKey('standard', bad), /not valid base64/, bad);
  }
  assert.equal(signingKey('standard', 'whsec_QUJD').toString('utf8'), 'ABC');
  assert.equal(signingKey('standard', 'QUJD').toString('utf8'), 'ABC');
  assert.equal(signingKey('hookline', 'whsec_%%%').toString('utf8'), 'whsec_%%%', 'hookline takes any text as shown');
});

test('keys are decoded once and cached per scheme; the oldest of 1024 cached keys is evicted first', () => {
  const s = `whsec_${Buffer.from('cache-test').toString('base64')}`;
  assert.equal(signingKey('standard', s), signingKey('standard', s), 'the same Buffer: decoded once');
  assert.notEqual(signingKey('hookline', s), signingKey('standard', s));
  assert.equal(signingKey('hookline', s).toString('utf8'), s);

  const secrets = Array.from({ length: 1025 }, (_, i) => `evict-${i}-${Math.random()}`);
  const first = secrets.map((x) => signingKey('hookline', x));
  // Inserting the 1025th evicted exactly the first: the second is still the cached Buffer.
  assert.equal(signingKey('hookline', secrets[1]!), first[1]);
  assert.equal(signingKey('hookline', secrets[1024]!), first[1024]);
  const again = signingKey('hookline', secrets[0]!);
  assert.notEqual(again, first[0], 'the first was evicted and decoded again');
  assert.deepEqual(again, first[0]);
});
