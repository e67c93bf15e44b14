import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { toKeySet, toSigningKeys } from './secret-key.ts';

test('string secrets: hookline keys are the string as shown, standard keys the base64 after whsec_', () => {
  const [k] = toSigningKeys({ kid: 'k1', secret: 'whsec_QUJD' });
  assert.equal(k!.kid, 'k1');
  assert.equal(k!.hookline.toString('utf8'), 'whsec_QUJD');
  assert.equal(k!.standard.toString('utf8'), 'ABC');
  assert.equal(toSigningKeys('QUJD')[0]!.standard.toString('utf8'), 'ABC', 'an unprefixed secret is base64 too');
  assert.equal(toSigningKeys('éQUJD')[0]!.hookline.toString('hex'), 'c3a951554a44', 'UTF-8 bytes');
  assert.ok(Object.isFrozen(k));
});

test('byte secrets are the key for both schemes', () => {
  const [k] = toSigningKeys(new Uint8Array([1, 2, 3]));
  assert.equal(k!.kid, undefined);
  assert.deepEqual([...k!.hookline], [1, 2, 3]);
  assert.deepEqual([...k!.standard], [1, 2, 3]);
  assert.deepEqual([...toSigningKeys([{ kid: 'b', secret: new Uint8Array([9]) }])[0]!.standard], [9]);
});

test('no secrets, or one that is empty for either scheme, is refused', () => {
  assert.throws(() => toSigningKeys([]), { name: 'TypeError', message: 'at least one secret is required' });
  for (const empty of ['', 'whsec_', new Uint8Array(0), { kid: 'k', secret: '' }]) {
    assert.throws(
      () => toSigningKeys(empty),
      { name: 'TypeError', message: 'a secret must not be empty' },
      String(empty),
    );
  }
});

test('toKeySet: whpk_/whsk_ become Ed25519 keys, everything else an HMAC secret; bad keys are refused', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const seed = Buffer.from(jwk.d as string, 'base64url');
  const pub = Buffer.from(jwk.x as string, 'base64url');
  const whpk = `whpk_${pub.toString('base64')}`;
  const set = toKeySet([
    { kid: 'p', secret: whpk },
    'whsec_QUJD',
    { kid: 's', secret: `whsk_${seed.toString('base64')}` },
  ]);
  assert.equal(set.hmac.length, 1);
  assert.deepEqual(
    set.ed25519.map((k) => [k.kid, k.privateKey !== undefined]),
    [
      ['p', false],
      ['s', true],
    ],
  );
  assert.equal(
    set.ed25519[1]!.publicKey.export({ format: 'jwk' }).x,
    jwk.x,
    'a seed-only whsk_ derives its public key',
  );
  assert.equal(toKeySet(`whsk_${Buffer.concat([seed, pub]).toString('base64')}`).ed25519.length, 1);
  assert.throws(() => toKeySet([]), /at least one secret/);
  assert.throws(() => toKeySet('whpk_QUJD'), /whpk_ key must be base64 of 32 bytes/);
  assert.throws(() => toKeySet(`whpk_${'%'.repeat(44)}`), /whpk_ key must be base64 of 32 bytes/);
  assert.throws(
    () => toKeySet(`whsk_${Buffer.concat([seed, Buffer.alloc(32)]).toString('base64')}`),
    /public key of its seed/,
  );
});
