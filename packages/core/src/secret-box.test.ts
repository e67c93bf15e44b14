import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { createSecretBox, generateMasterKey, parseMasterKey } from './secret-box.ts';

const WRONG = /cannot open sealed value/;

test('seal then open returns the plaintext; each seal uses a fresh IV', () => {
  const box = createSecretBox(generateMasterKey());
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw Zoë 🚀';
  const a = box.seal(secret, 'ep_1');
  const b = box.seal(secret, 'ep_1');
  assert.match(a, /^v1:[A-Za-z0-9+/]+=*$/);
  assert.notEqual(a, b);
  assert.equal(box.open(a, 'ep_1'), secret);
  assert.equal(box.open(b, 'ep_1'), secret);
  assert.equal(box.open(box.seal(''), undefined), '');
  assert.ok(!a.includes('MfKQ9r8'));
});

test('any flipped byte is detected', () => {
  const box = createSecretBox(randomBytes(32));
  const sealed = box.seal('top secret', 'ep_1');
  const raw = Buffer.from(sealed.slice(3), 'base64');
  for (const i of [0, 11, 12, 27, 28, raw.length - 1]) {
    const bad = Buffer.from(raw);
    bad[i] ^= 0x01;
    assert.throws(() => box.open(`v1:${bad.toString('base64')}`, 'ep_1'), WRONG, `byte ${i}`);
  }
  assert.throws(() => box.open(`v1:${raw.subarray(0, 20).toString('base64')}`, 'ep_1'), /truncated/);
  assert.throws(() => box.open(`v2:${raw.toString('base64')}`, 'ep_1'), /not a v1/);
});

test('a different master key cannot open it', () => {
  const sealed = createSecretBox(generateMasterKey()).seal('top secret');
  assert.throws(() => createSecretBox(generateMasterKey()).open(sealed), WRONG);
});

test('aad binds the value to its owner', () => {
  const box = createSecretBox(generateMasterKey());
  const sealed = box.seal('top secret', 'ep_1');
  assert.throws(() => box.open(sealed, 'ep_2'), WRONG);
  assert.throws(() => box.open(sealed), WRONG);
  assert.throws(() => box.open(box.seal('top secret'), 'ep_1'), WRONG);
});

test('master key accepted as Buffer, base64 or hex; anything but 32 bytes refused', () => {
  const bytes = randomBytes(32);
  const sealed = createSecretBox(bytes).seal('x');
  assert.equal(createSecretBox(bytes.toString('base64')).open(sealed), 'x');
  assert.equal(createSecretBox(bytes.toString('hex')).open(sealed), 'x');
  assert.equal(parseMasterKey(generateMasterKey()).length, 32);
  assert.throws(() => createSecretBox(randomBytes(16)), /32 bytes/);
  assert.throws(() => createSecretBox(randomBytes(24).toString('base64')), /32 bytes/);
  assert.throws(() => createSecretBox('not a key!'), /base64 or 64 hex/);
});
