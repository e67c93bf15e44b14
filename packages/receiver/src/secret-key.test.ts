import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toSigningKeys } from './secret-key.ts';

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
    assert.throws(() => toSigningKeys(empty), { name: 'TypeError', message: 'a secret must not be empty' }, String(empty));
  }
});
