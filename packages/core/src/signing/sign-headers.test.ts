import assert from 'node:assert/strict';
import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  sign as edSign,
  verify as edVerify,
  generateKeyPairSync,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import type { Scheme } from '../domain.ts';
import { generateEd25519Secret, generateSecret, publicKeyOf, signHeaders } from './index.ts';
import { signingKey } from './signing-keys.ts';

interface Vector {
  name: string;
  scheme: Scheme;
  eventId: string;
  deliveryId: string;
  timestamp: number;
  body: string;
  secrets: { kid: string; secret: string }[];
  /** Ed25519 vectors: the sender's whsk_ keys (secrets then holds the receiver's whpk_ public keys). */
  signingKeys?: { kid: string; secret: string }[];
  headers: Record<string, string>;
}
// The one copy of the signing vectors lives with the receiver toolkit (its verifier tests the same file); the ones
// marked signer: true are exactly what this signer must send.
const file = fileURLToPath(import.meta.resolve('@hookline/receiver/test-vectors.json'));
const vectors = (
  JSON.parse(readFileSync(file, 'utf8')) as { vectors: Array<Vector & { signer?: boolean }> }
).vectors.filter((v) => v.signer === true);

// Written out again from docs/rules.md#signing so a mistake in the signer cannot hide in the vectors file.
function independentKey(scheme: Scheme, secret: string): Buffer {
  if (scheme === 'hookline') return Buffer.from(secret, 'utf8');
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
}
// Ed25519 keys from their whsk_/whpk_ text by the RFC 8410 DER layouts, not through ed25519-keys.ts.
const independentPrivate = (whsk: string) =>
  createPrivateKey({
    key: Buffer.concat([
      Buffer.from('302e020100300506032b657004220420', 'hex'),
      Buffer.from(whsk.slice(5), 'base64').subarray(0, 32),
    ]),
    format: 'der',
    type: 'pkcs8',
  });
const independentPublic = (whpk: string) =>
  createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(whpk.slice(5), 'base64')]),
    format: 'der',
    type: 'spki',
  });
function independentHeaders(v: Vector): Record<string, string> {
  const t = String(v.timestamp);
  if (v.scheme === 'standard') {
    const sigs = (v.signingKeys ?? v.secrets).map((s) =>
      s.secret.startsWith('whsk_')
        ? 'v1a,' +
          edSign(null, Buffer.from(`${v.eventId}.${t}.${v.body}`, 'utf8'), independentPrivate(s.secret)).toString(
            'base64',
          )
        : 'v1,' +
          createHmac('sha256', independentKey('standard', s.secret))
            .update(`${v.eventId}.${t}.${v.body}`)
            .digest('base64'),
    );
    return {
      'webhook-id': v.eventId,
      'webhook-delivery': v.deliveryId,
      'webhook-timestamp': t,
      'webhook-signature': sigs.join(' '),
    };
  }
  const pairs = v.secrets.map(
    (s) =>
      `v1=${createHmac('sha256', independentKey('hookline', s.secret)).update(`${t}.${v.body}`).digest('hex')},kid=${s.kid}`,
  );
  return {
    'X-Webhook-Id': v.eventId,
    'X-Webhook-Delivery': v.deliveryId,
    'X-Webhook-Timestamp': t,
    'X-Webhook-Signature': [`t=${t}`, ...pairs].join(','),
  };
}
const sign = (v: Vector) =>
  signHeaders({
    scheme: v.scheme,
    eventId: v.eventId,
    deliveryId: v.deliveryId,
    timestampSec: v.timestamp,
    body: Buffer.from(v.body, 'utf8'),
    secrets: v.signingKeys ?? v.secrets,
  });

test('the vectors file holds the Standard Webhooks published vector and a rotation vector per scheme', () => {
  const published = vectors.find((v) => v.name === 'standard-webhooks-published');
  assert.ok(published);
  assert.equal(published.eventId, 'msg_p5jXN8AQM9LWM0D4loKWxJek');
  assert.equal(published.timestamp, 1614265330);
  assert.equal(published.body, '{"test": 2432232314}');
  assert.equal(published.secrets[0].secret, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
  assert.equal(published.headers['webhook-signature'], 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  for (const scheme of ['hookline', 'standard']) {
    assert.ok(
      vectors.some((v) => v.scheme === scheme && v.secrets.length > 1),
      `${scheme} rotation vector`,
    );
  }
  assert.ok(
    vectors.some((v) => (v.signingKeys?.length ?? 0) > 1),
    'ed25519 rotation vector',
  );
});

test('ed25519 vectors: every v1a entry verifies with crypto.verify under the whpk_ of its whsk_, and under no other key', () => {
  const ed = vectors.filter((v) => v.signingKeys !== undefined);
  assert.ok(ed.length >= 2);
  for (const v of ed) {
    const entries = v.headers['webhook-signature'].split(' ');
    assert.equal(entries.length, v.signingKeys!.length, v.name);
    const message = Buffer.from(`${v.eventId}.${v.timestamp}.${v.body}`, 'utf8');
    entries.forEach((entry, i) => {
      assert.match(entry, /^v1a,[A-Za-z0-9+/]{86}==$/, 'v1a, then base64 of 64 bytes');
      const sig = Buffer.from(entry.slice(4), 'base64');
      const whpk = `whpk_${Buffer.from(v.signingKeys![i].secret.slice(5), 'base64').subarray(32).toString('base64')}`;
      assert.equal(publicKeyOf(v.signingKeys![i].secret), whpk, 'whsk_ is seed || public key');
      assert.equal(edVerify(null, message, independentPublic(whpk), sig), true, `${v.name} entry ${i}`);
      assert.equal(
        edVerify(null, Buffer.concat([message, Buffer.from(' ')]), independentPublic(whpk), sig),
        false,
        'another body',
      );
    });
    // The receiver's keys in the vector are the public halves of (some of) the sender's.
    for (const s of v.secrets)
      assert.ok(
        v.signingKeys!.some((k) => publicKeyOf(k.secret) === s.secret),
        `${v.name}: ${s.kid}`,
      );
  }
});

test('generateEd25519Secret: whsk_ of 64 bytes whose signatures verify under publicKeyOf (whpk_ of 32 bytes)', () => {
  const whsk = generateEd25519Secret();
  assert.match(whsk, /^whsk_[A-Za-z0-9+/]{86}==$/);
  assert.notEqual(generateEd25519Secret(), whsk);
  const whpk = publicKeyOf(whsk);
  assert.match(whpk, /^whpk_[A-Za-z0-9+/]{43}=$/);
  const body = Buffer.from('{"event_id":"e"}');
  const headers = signHeaders({
    scheme: 'standard',
    eventId: 'e',
    deliveryId: 'd',
    timestampSec: 1767225600,
    body,
    secrets: [{ kid: 'k', secret: whsk }],
  });
  const sig = Buffer.from(headers['webhook-signature'].slice(4), 'base64');
  assert.equal(edVerify(null, Buffer.from('e.1767225600.{"event_id":"e"}'), independentPublic(whpk), sig), true);
  // A key pair made by node:crypto directly, as 32-byte seed alone, signs the same.
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const seedOnly = `whsk_${Buffer.from(jwk.d as string, 'base64url').toString('base64')}`;
  assert.equal(publicKeyOf(seedOnly), `whpk_${Buffer.from(jwk.x as string, 'base64url').toString('base64')}`);
});

test('ed25519: mixed with an HMAC secret during a change, bad keys fail loudly', () => {
  const whsk = generateEd25519Secret();
  const base = { eventId: 'e', deliveryId: 'd', timestampSec: 1, body: Buffer.from('{}') };
  const mixed = signHeaders({
    ...base,
    scheme: 'standard',
    secrets: [
      { kid: 'a', secret: whsk },
      { kid: 'b', secret: generateSecret() },
    ],
  })['webhook-signature'];
  assert.match(mixed, /^v1a,\S{88} v1,\S{44}$/);
  assert.throws(
    () => signHeaders({ ...base, scheme: 'hookline', secrets: [{ kid: 'k', secret: whsk }] }),
    /only the standard scheme/,
  );
  assert.throws(
    () => signHeaders({ ...base, scheme: 'standard', secrets: [{ kid: 'k', secret: 'whsk_not base64!' }] }),
    /not valid base64/,
  );
  assert.throws(
    () => signHeaders({ ...base, scheme: 'standard', secrets: [{ kid: 'k', secret: 'whsk_QUJD' }] }),
    /32 or 64 bytes/,
  );
  const other = Buffer.from(generateEd25519Secret().slice(5), 'base64');
  const forged =
    'whsk_' +
    Buffer.concat([Buffer.from(whsk.slice(5), 'base64').subarray(0, 32), other.subarray(32)]).toString('base64');
  assert.throws(() => publicKeyOf(forged), /not the public key of its seed/);
});

for (const v of vectors) {
  test(`vector ${v.name}: file agrees with an independent computation`, () => {
    assert.deepEqual(v.headers, independentHeaders(v));
  });
  test(`vector ${v.name}: signHeaders produces exactly the expected headers`, () => {
    assert.deepEqual(sign(v), v.headers);
  });
}

test('hookline rotation signs with every secret, current first, in one header', () => {
  const v = vectors.find((x) => x.name === 'hookline-rotation')!;
  const parts = sign(v)['X-Webhook-Signature'].split(',');
  assert.equal(parts.length, 1 + 2 * v.secrets.length);
  assert.deepEqual(
    parts.filter((p) => p.startsWith('kid=')),
    ['kid=key_new', 'kid=key_old'],
  );
});

function freshStandard(secrets: { kid: string; secret: string }[]) {
  const body = Buffer.from(
    JSON.stringify({ event_id: 'evt_1', type: 'invoice.paid', data: { amount: 10, name: 'Zoë' } }),
  );
  const headers = signHeaders({
    scheme: 'standard',
    eventId: 'evt_1',
    deliveryId: 'dlv_1',
    timestampSec: Math.floor(Date.now() / 1000),
    body,
    secrets,
  });
  return { body, headers };
}

test('standardwebhooks library verifies our standard signatures, each rotation secret alone too', () => {
  const a = generateSecret();
  const b = generateSecret();
  const { body, headers } = freshStandard([
    { kid: 'a', secret: a },
    { kid: 'b', secret: b },
  ]);
  for (const secret of [a, b]) {
    assert.deepEqual(
      new StandardWebhook(secret).verify(body.toString('utf8'), headers),
      JSON.parse(body.toString('utf8')),
    );
  }
  assert.throws(() => new StandardWebhook(generateSecret()).verify(body.toString('utf8'), headers));
});

test('svix library verifies our standard signatures under svix-* header names', () => {
  const a = generateSecret();
  const b = generateSecret();
  const { body, headers } = freshStandard([
    { kid: 'a', secret: a },
    { kid: 'b', secret: b },
  ]);
  const svixHeaders = {
    'svix-id': headers['webhook-id'],
    'svix-timestamp': headers['webhook-timestamp'],
    'svix-signature': headers['webhook-signature'],
  };
  for (const secret of [a, b]) {
    assert.deepEqual(
      new SvixWebhook(secret).verify(body.toString('utf8'), svixHeaders),
      JSON.parse(body.toString('utf8')),
    );
  }
  assert.throws(() => new SvixWebhook(generateSecret()).verify(body.toString('utf8'), svixHeaders));
});

test('generateSecret is whsec_ + base64 of 32 random bytes, usable by both schemes', () => {
  const s = generateSecret();
  assert.match(s, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.equal(Buffer.from(s.slice(6), 'base64').length, 32);
  assert.notEqual(generateSecret(), s);
  assert.equal(signingKey('standard', s).length, 32);
  // hookline signs with the secret exactly as shown (docs/rules.md#scheme-hookline): the payment hub's integrators write createHmac('sha256', secret).
  assert.deepEqual(signingKey('hookline', s), Buffer.from(s, 'utf8'));
  const t = '1767225600';
  const body = '{"event_id":"e"}';
  const header = signHeaders({
    scheme: 'hookline',
    eventId: 'e',
    deliveryId: 'd',
    timestampSec: Number(t),
    body: Buffer.from(body),
    secrets: [{ kid: 'k', secret: s }],
  })['X-Webhook-Signature'];
  assert.equal(header, `t=${t},v1=${createHmac('sha256', s).update(`${t}.${body}`).digest('hex')},kid=k`);
});

test('bad inputs fail loudly', () => {
  const base = { scheme: 'hookline' as const, eventId: 'e', deliveryId: 'd', timestampSec: 1, body: Buffer.from('{}') };
  assert.throws(() => signHeaders({ ...base, secrets: [] }), /at least one secret/);
  assert.throws(() => signHeaders({ ...base, timestampSec: 1.5, secrets: [{ kid: 'k', secret: 's' }] }), /whole/);
  assert.throws(() => signHeaders({ ...base, secrets: [{ kid: 'a,b', secret: 's' }] }), /kid/);
  assert.throws(() => signHeaders({ ...base, secrets: [{ kid: '', secret: 's' }] }), /kid "" cannot appear/);
  assert.throws(() => signHeaders({ ...base, timestampSec: -1, secrets: [{ kid: 'k', secret: 's' }] }), /non-negative/);
  assert.equal(
    signHeaders({ ...base, timestampSec: 0, secrets: [{ kid: 'k', secret: 's' }] })['X-Webhook-Timestamp'],
    '0',
    'the epoch itself is a valid time',
  );
  assert.throws(
    () => signHeaders({ ...base, scheme: 'standard', secrets: [{ kid: 'k', secret: 'whsec_not base64!' }] }),
    /base64/,
  );
  assert.throws(() => signHeaders({ ...base, secrets: [{ kid: 'k', secret: '' }] }), /empty/);
  assert.throws(() => signHeaders({ ...base, scheme: 'standard', secrets: [{ kid: 'k', secret: '' }] }), /empty/);
});
