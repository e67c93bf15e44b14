import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ReceiverError } from './errors.ts';
import { toSigningKeys } from './secret-key.ts';
import { formatHooklineSignature, hooklineDigest, matchHooklineSignature } from './signature-hookline.ts';

const T = '1750000000';
const body = '{"type":"order.created"}';
const hex = (secret: string) => hooklineDigest(Buffer.from(secret), T, body).toString('hex');

/** The code and message a header value gets, or 'valid' with the kid it matched. */
function outcome(
  signature: string,
  keys = toSigningKeys([
    { kid: 'a', secret: 's1' },
    { kid: 'b', secret: 's2' },
  ]),
  extra: Record<string, string> = {},
) {
  try {
    const r = matchHooklineSignature({ 'x-webhook-signature': signature, ...extra }, body, keys);
    return `valid kid=${r.kid}`;
  } catch (e) {
    if (e instanceof ReceiverError) return `${e.code}: ${e.message}`;
    throw e;
  }
}

test('the header names t once, then v1 (and its kid) per key; a key without kid adds no kid=', () => {
  const keys = toSigningKeys([{ kid: 'k1', secret: 's1' }, 's2']);
  assert.equal(formatHooklineSignature(T, keys, body), `t=${T},v1=${hex('s1')},kid=k1,v1=${hex('s2')}`);
});

test('a named kid picks its key; an unknown kid or none falls back to every key; a kidless key reports the signed kid', () => {
  // Two kids sharing one secret: only the kid says which one signed.
  const twins = toSigningKeys([
    { kid: 'a', secret: 'same' },
    { kid: 'b', secret: 'same' },
  ]);
  assert.equal(outcome(`t=${T},v1=${hex('same')},kid=b`, twins), 'valid kid=b');
  assert.equal(outcome(`t=${T},v1=${hex('same')},kid=a`, twins), 'valid kid=a');
  assert.equal(outcome(`t=${T},v1=${hex('s2')},kid=unknown`), 'valid kid=b');
  assert.equal(outcome(`t=${T},v1=${hex('s2')}`), 'valid kid=b');
  assert.equal(outcome(`t=${T},v1=${hex('s1')},kid=named`, toSigningKeys('s1')), 'valid kid=named');
  // A kid naming the wrong key still needs that key's HMAC: s1's digest under kid=b does not verify as a.
  assert.equal(outcome(`t=${T},v1=${hex('s1')},kid=b`, twins), 'signature_mismatch: signature mismatch');
});

test('whitespace around parts is tolerated, and the timestamp header may carry spaces or be absent', () => {
  assert.equal(outcome(` t = ${T} , v1 = ${hex('s1')} , kid = a `), 'valid kid=a');
  assert.equal(outcome(`t=${T},v1=${hex('s1')}`, undefined, { 'x-webhook-timestamp': ` ${T} ` }), 'valid kid=a');
  assert.equal(
    outcome(`t=${T},v1=${hex('s1')}`, undefined, { 'x-webhook-timestamp': '1750000001' }),
    'malformed_signature: malformed signature: X-Webhook-Timestamp differs from t=',
  );
  assert.equal(outcome('   '), 'missing_signature: missing signature');
  // Unknown names (a future v2=) are ignored.
  assert.equal(outcome(`t=${T},v2=zzz,v1=${hex('s1')}`), 'valid kid=a');
});

test('each malformed header says what is wrong', () => {
  const v1 = `v1=${hex('s1')}`;
  const cases: Array<[string, string]> = [
    ['garbage', 'unexpected "garbage"'],
    [`t=${T},=x,${v1}`, 'unexpected "=x"'],
    [`t=${T},t=${T},${v1}`, 't= must appear once, as unix seconds'],
    [`t=x${T},${v1}`, 't= must appear once, as unix seconds'],
    [`t=${T}x,${v1}`, 't= must appear once, as unix seconds'],
    [`t=1234567890123456,${v1}`, 't= must appear once, as unix seconds'],
    [`t=${T},v1=g${hex('s1')}`, 'v1= must be 64 hex characters'],
    [`t=${T},v1=${hex('s1')}g`, 'v1= must be 64 hex characters'],
    [`t=${T},kid=a,${v1}`, 'kid= must follow its v1='],
    [`t=${T},${v1},kid=a,kid=b`, 'kid= must follow its v1='],
    [`${v1}`, 'no t='],
    [`t=${T}`, 'no v1='],
  ];
  for (const [header, detail] of cases)
    assert.equal(outcome(header), `malformed_signature: malformed signature: ${detail}`, header);
});
