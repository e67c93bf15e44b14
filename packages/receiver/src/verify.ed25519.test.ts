// Ed25519 signatures (v1a, docs/rules.md#signing-ed25519) on the receiver's side: the shared vectors' v1a entries,
// signing with a whsk_ key, verifying with only its whpk_ public key.
import assert from 'node:assert/strict';
import { createPublicKey, verify as edVerify } from 'node:crypto';
import { describe, test } from 'node:test';
import { ReceiverError } from './errors.ts';
import { signWebhook } from './sign.ts';
import vectors from './test-vectors.json' with { type: 'json' };
import { createVerifier } from './verify.ts';

const NOW_S = 1_750_000_000;
const now = () => NOW_S * 1000;
const body = '{"type":"order.shipped","event_id":"evt_1","data":{"order_id":"ord_1"}}';

describe('ed25519 (v1a)', () => {
  const ed = vectors.vectors.find((v) => v.name === 'standard-ed25519')! as (typeof vectors.vectors)[number] & {
    signingKeys: Array<{ kid: string; secret: string }>;
  };

  test("signWebhook with the vector's whsk_ reproduces its v1a header; a verifier holding only whpk_ accepts it", () => {
    const headers = signWebhook({
      scheme: 'standard',
      secrets: ed.signingKeys,
      id: ed.eventId!,
      timestamp: ed.timestamp,
      body: ed.body,
    });
    assert.equal(headers['webhook-signature'], ed.headers['webhook-signature']);
    const verifier = createVerifier({ secrets: ed.secrets, now: () => ed.now * 1000 });
    assert.equal(verifier.verify(headers, ed.body).kid, 'key_ed_1');
  });

  test("every v1a vector entry checks out with crypto.verify directly, under the vector's whpk_ key", () => {
    const edVectors = vectors.vectors.filter((v) => String(Object.values(v.headers).join(' ')).includes('v1a,'));
    assert.ok(edVectors.length >= 5);
    for (const v of edVectors) {
      const h = v.headers as unknown as Record<string, string>;
      const content = Buffer.from(`${h['webhook-id']}.${h['webhook-timestamp']}.${v.body}`, 'utf8');
      const verdicts = v.secrets.map((s) => {
        if (!s.secret.startsWith('whpk_')) return false;
        const key = createPublicKey({
          key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(s.secret.slice(5), 'base64').toString('base64url') },
          format: 'jwk',
        });
        return h['webhook-signature']!.split(' ').some(
          (i) => i.startsWith('v1a,') && edVerify(null, content, key, Buffer.from(i.slice(4), 'base64')),
        );
      });
      // valid and too-old vectors carry a good v1a; the mismatch ones must not verify under any key.
      assert.equal(verdicts.some(Boolean), v.expect !== 'signature_mismatch', v.name);
    }
  });

  test('the hookline scheme cannot carry Ed25519: signing refuses, and a whpk_-only verifier never matches hookline headers', () => {
    assert.throws(() => signWebhook({ secrets: ed.signingKeys, id: 'evt_1', body }), /only the standard scheme/);
    const hooklineHeaders = signWebhook({ secrets: 'hookline_test_secret', id: 'evt_1', timestamp: NOW_S, body });
    assert.throws(
      () => createVerifier({ secrets: ed.secrets, now }).verify(hooklineHeaders, body),
      (error) => error instanceof ReceiverError && error.code === 'signature_mismatch',
    );
  });
});
