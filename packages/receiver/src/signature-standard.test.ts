import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReceiverError } from './errors.ts';
import { toSigningKeys } from './secret-key.ts';
import { hasStandardSignature, matchStandardSignature, standardDigest } from './signature-standard.ts';

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
  assert.equal(outcome({ ...good, 'webhook-signature': `v1,c2hvcnQ= v1a,${sig} v1,${sig}` }), `valid msg_1 ${T} k1 undefined`);
  assert.equal(outcome({ ...good, 'webhook-signature': `v2,${sig}` }), 'malformed_signature: malformed signature: no v1 signature');
  assert.equal(outcome({ ...good, 'webhook-signature': 'v1,c2hvcnQ=' }), 'malformed_signature: malformed signature: no v1 signature');
});

test('missing and malformed headers say what is wrong', () => {
  const { 'webhook-id': _id, ...noId } = good;
  const { 'webhook-timestamp': _ts, ...noTs } = good;
  assert.equal(outcome({ ...good, 'webhook-signature': '  ' }), 'missing_signature: missing signature');
  assert.equal(outcome(noId), 'malformed_signature: malformed signature: no webhook-id header');
  assert.equal(outcome(noTs), 'malformed_signature: malformed signature: webhook-timestamp must be unix seconds');
  assert.equal(outcome({ ...good, 'webhook-timestamp': `x${T}` }), 'malformed_signature: malformed signature: webhook-timestamp must be unix seconds');
  assert.equal(outcome({ ...good, 'webhook-timestamp': `${T}x` }), 'malformed_signature: malformed signature: webhook-timestamp must be unix seconds');
});
