import assert from 'node:assert/strict';
import { sign as edSign, verify as edVerify, generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { ReceiverError } from './errors.ts';
import { toKeySet, toSigningKeys } from './secret-key.ts';
import {
  formatStandardSignature,
  hasStandardSignature,
  matchStandardSignature,
  standardDigest,
} from './signature-standard.ts';

const whsec = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const keys = toSigningKeys([{ kid: 'k1', secret: whsec }]);
const T = '1750000000';
const body = '{"type":"order.created"}';
const sig = standardDigest(keys[0]!.standard, 'msg_1', T, body).toString('base64');
const good = { 'webhook-id': 'msg_1', 'webhook-timestamp': T, 'webhook-signature': `v1,${sig}` };

function outcome(headers: Record<string, string>) {
  try {
    const r = matchStandardSignature(headers, body, keys);
    return `valid ${r.eventId} ${r.timestamp} ${r.kid} ${r.deliveryId}`;
  } catch (e) {
    if (e instanceof ReceiverError) return `${e.code}: ${e.message}`;
    throw e;
  }
}

test('svix-* aliases are read for every header; webhook-delivery is reported when present', () => {
  const svix = { 'svix-id': 'msg_1', 'svix-timestamp': T, 'svix-signature': `v1,${sig}` };
  assert.equal(hasStandardSignature(svix), true);
  assert.equal(hasStandardSignature({ 'webhook-id': 'msg_1' }), false);
  assert.equal(outcome(svix), `valid msg_1 ${T} k1 undefined`);
  assert.equal(outcome({ ...good, 'webhook-delivery': 'dlv_1' }), `valid msg_1 ${T} k1 dlv_1`);
  assert.equal(outcome({ ...good, 'webhook-timestamp': ` ${T} ` }), `valid msg_1 ${T} k1 undefined`);
});

test('only v1 items of 32 bytes are candidates: others are skipped, not compared', () => {
  assert.equal(
    outcome({ ...good, 'webhook-signature': `v1,c2hvcnQ= v1a,${sig} v1,${sig}` }),
    `valid msg_1 ${T} k1 undefined`,
  );
  assert.equal(
    outcome({ ...good, 'webhook-signature': `v2,${sig}` }),
    'malformed_signature: malformed signature: no v1 or v1a signature',
  );
  assert.equal(
    outcome({ ...good, 'webhook-signature': 'v1,c2hvcnQ=' }),
    'malformed_signature: malformed signature: no v1 or v1a signature',
  );
});

test('missing and malformed headers say what is wrong', () => {
  const { 'webhook-id': _id, ...noId } = good;
  const { 'webhook-timestamp': _ts, ...noTs } = good;
  assert.equal(outcome({ ...good, 'webhook-signature': '  ' }), 'missing_signature: missing signature');
  assert.equal(outcome(noId), 'malformed_signature: malformed signature: no webhook-id header');
  assert.equal(outcome(noTs), 'malformed_signature: malformed signature: webhook-timestamp must be unix seconds');
  assert.equal(
    outcome({ ...good, 'webhook-timestamp': `x${T}` }),
    'malformed_signature: malformed signature: webhook-timestamp must be unix seconds',
  );
  assert.equal(
    outcome({ ...good, 'webhook-timestamp': `${T}x` }),
    'malformed_signature: malformed signature: webhook-timestamp must be unix seconds',
  );
});

test('v1a: Ed25519 signatures verify with a whpk_ public key from node:crypto, never with an HMAC secret', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const whpk = `whpk_${Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url').toString('base64')}`;
  const v1a = `v1a,${edSign(null, Buffer.from(`msg_1.${T}.${body}`), privateKey).toString('base64')}`;
  const ed = toKeySet([{ kid: 'ed', secret: whpk }]);
  const mixed = toKeySet([
    { kid: 'k1', secret: whsec },
    { kid: 'ed', secret: whpk },
  ]);
  const check = (
    headers: Record<string, string>,
    set: Parameters<typeof matchStandardSignature>[2],
    b: string | Uint8Array = body,
  ) => {
    try {
      return `valid ${matchStandardSignature(headers, b, set).kid}`;
    } catch (e) {
      if (e instanceof ReceiverError) return `${e.code}: ${e.message}`;
      throw e;
    }
  };
  assert.equal(check({ ...good, 'webhook-signature': v1a }, ed), 'valid ed');
  assert.equal(check({ ...good, 'webhook-signature': v1a }, ed, Buffer.from(body)), 'valid ed', 'Buffer body');
  assert.equal(check({ ...good, 'webhook-signature': `v1,${sig} ${v1a}` }, mixed), 'valid k1');
  assert.equal(
    check({ ...good, 'webhook-signature': `v1,${sig} ${v1a}` }, ed),
    'valid ed',
    'the v1 entry is skipped without an HMAC secret',
  );
  assert.equal(
    check({ ...good, 'webhook-signature': v1a }, keys),
    'signature_mismatch: signature mismatch',
    'an HMAC secret never checks v1a',
  );
  assert.equal(
    check({ ...good, 'webhook-signature': `v1,${sig}` }, ed),
    'signature_mismatch: signature mismatch',
    'a public key never checks v1',
  );
  assert.equal(check({ ...good, 'webhook-signature': v1a }, ed, `${body} `), 'signature_mismatch: signature mismatch');
  assert.equal(
    check({ ...good, 'webhook-id': 'msg_2', 'webhook-signature': v1a }, ed),
    'signature_mismatch: signature mismatch',
    'the id is signed',
  );
  assert.equal(
    check({ ...good, 'webhook-signature': 'v1a,c2hvcnQ=' }, ed),
    'malformed_signature: malformed signature: no v1 or v1a signature',
  );
  const many = Array.from({ length: 9 }, () => v1a).join(' ');
  assert.equal(
    check({ ...good, 'webhook-signature': many }, ed),
    'malformed_signature: malformed signature: more than 8 v1a signatures',
  );
  // An independent check of what a v1a entry is: crypto.verify straight from node:crypto.
  assert.equal(edVerify(null, Buffer.from(`msg_1.${T}.${body}`), publicKey, Buffer.from(v1a.slice(4), 'base64')), true);
});

test('formatStandardSignature signs v1a with a whsk_ key and refuses a public key', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const whsk =
    'whsk_' +
    Buffer.concat([Buffer.from(jwk.d as string, 'base64url'), Buffer.from(jwk.x as string, 'base64url')]).toString(
      'base64',
    );
  const whpk = `whpk_${Buffer.from(jwk.x as string, 'base64url').toString('base64')}`;
  const header = formatStandardSignature('msg_1', T, toKeySet([whsec, whsk]), body);
  assert.match(header, /^v1,\S{44} v1a,\S{88}$/);
  assert.equal(
    matchStandardSignature({ ...good, 'webhook-signature': header.split(' ')[1]! }, body, toKeySet(whpk)).scheme,
    'standard',
  );
  assert.throws(() => formatStandardSignature('msg_1', T, toKeySet(whpk), body), /cannot sign/);
});
