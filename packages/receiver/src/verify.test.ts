import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { ReceiverError } from './errors.ts';
import { signWebhook } from './sign.ts';
// The one copy of the signing vectors, also read by packages/core's signer test (as @hookline/receiver/test-vectors.json).
import vectors from './test-vectors.json' with { type: 'json' };
import { createVerifier, verifyWebhook } from './verify.ts';

const NOW_S = 1_750_000_000;
const now = () => NOW_S * 1000;
const body = '{ "type":"order.shipped",  "event_id":"evt_1",\n "data": {"order_id": "ord_1", "amount": 1.50} }';
const whsec = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof ReceiverError) return error.code;
    throw error;
  }
  return 'valid';
}

describe('test vectors', () => {
  for (const v of vectors.vectors) {
    test(v.name, () => {
      const verifier = createVerifier({
        secrets: v.secrets,
        scheme: v.scheme as 'hookline' | 'standard',
        now: () => v.now * 1000,
      });
      assert.equal(
        codeOf(() => verifier.verify(v.headers, v.body)),
        v.expect,
      );
      assert.equal(
        codeOf(() => verifier.verify(v.headers, Buffer.from(v.body))),
        v.expect,
        'Buffer body',
      );
      // The vectors the engine's signer produces (signer: true) carry the ids the verifier must report.
      if (v.expect === 'valid' && 'eventId' in v) {
        const result = verifier.verify(v.headers, v.body);
        assert.equal(result.eventId, v.eventId);
        assert.equal(result.deliveryId, v.deliveryId);
      }
    });
  }

  test('sign() reproduces the Standard Webhooks published signature exactly', () => {
    const headers = signWebhook({
      scheme: 'standard',
      secrets: whsec,
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
    });
    assert.equal(headers['webhook-signature'], 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});

describe('interoperability', () => {
  test('we verify what standardwebhooks and svix sign', () => {
    const verifier = createVerifier({ secrets: whsec, scheme: 'standard', now: Date.now });
    const at = new Date();
    const std = new StandardWebhook(whsec).sign('msg_std', at, body);
    const svix = new SvixWebhook(whsec).sign('msg_svix', at, body);
    const ts = String(Math.floor(at.getTime() / 1000));
    assert.equal(
      verifier.verify({ 'webhook-id': 'msg_std', 'webhook-timestamp': ts, 'webhook-signature': std }, body).eventId,
      'msg_std',
    );
    assert.equal(
      verifier.verify({ 'svix-id': 'msg_svix', 'svix-timestamp': ts, 'svix-signature': svix }, Buffer.from(body))
        .eventId,
      'msg_svix',
    );
  });

  test('standardwebhooks and svix verify what we sign', () => {
    const headers = signWebhook({ scheme: 'standard', secrets: whsec, id: 'msg_ours', body });
    assert.deepEqual(new StandardWebhook(whsec).verify(body, headers), JSON.parse(body));
    assert.deepEqual(new SvixWebhook(whsec).verify(body, headers), JSON.parse(body));
    const svixHeaders = {
      'svix-id': headers['webhook-id']!,
      'svix-timestamp': headers['webhook-timestamp']!,
      'svix-signature': headers['webhook-signature']!,
    };
    assert.deepEqual(new SvixWebhook(whsec).verify(body, svixHeaders), JSON.parse(body));
  });

  test('standardwebhooks verifies our multi-secret header during rotation', () => {
    const old = 'whsec_ABEiM0RVZneImaq7zN3u/w==';
    const headers = signWebhook({ scheme: 'standard', secrets: [old, whsec], id: 'msg_rot', body });
    assert.match(headers['webhook-signature']!, /^v1,\S+ v1,\S+$/);
    assert.ok(new StandardWebhook(whsec).verify(body, headers));
    assert.ok(new StandardWebhook(old).verify(body, headers));
  });
});

describe('hookline scheme', () => {
  const secrets = [
    { kid: 'k-new', secret: 'new secret' },
    { kid: 'k-old', secret: 'old secret' },
  ];
  const verifier = createVerifier({ secrets, scheme: 'hookline', now });

  test('round-trips with ids, kid and a Uint8Array body', () => {
    const headers = signWebhook({ secrets: secrets[1]!, id: 'evt_1', deliveryId: 'dlv_1', timestamp: NOW_S, body });
    const result = verifier.verify(headers, new TextEncoder().encode(body));
    assert.deepEqual(result, {
      scheme: 'hookline',
      eventId: 'evt_1',
      deliveryId: 'dlv_1',
      timestamp: NOW_S,
      kid: 'k-old',
    });
  });

  test('a signature without kid is tried against every secret', () => {
    const headers = signWebhook({ secrets: 'old secret', id: 'evt_1', timestamp: NOW_S, body });
    assert.equal(verifier.verify(headers, body).kid, 'k-old');
  });

  test('rotation: several v1/kid pairs in one header', () => {
    const headers = signWebhook({
      secrets: [{ kid: 'k-retired', secret: 'gone' }, secrets[0]!],
      id: 'evt_1',
      timestamp: NOW_S,
      body,
    });
    assert.match(headers['x-webhook-signature']!, /^t=\d+,v1=[0-9a-f]{64},kid=k-retired,v1=[0-9a-f]{64},kid=k-new$/);
    assert.equal(verifier.verify(headers, body).kid, 'k-new');
  });

  test('a re-serialised body does not verify', () => {
    const headers = signWebhook({ secrets: secrets[0]!, id: 'evt_1', timestamp: NOW_S, body });
    assert.equal(
      codeOf(() => verifier.verify(headers, JSON.stringify(JSON.parse(body)))),
      'signature_mismatch',
    );
  });

  test('timestamp tolerance in both directions, configurable', () => {
    const sign = (ts: number) => signWebhook({ secrets: secrets[0]!, id: 'evt_1', timestamp: ts, body });
    assert.equal(
      codeOf(() => verifier.verify(sign(NOW_S - 300), body)),
      'valid',
    );
    assert.equal(
      codeOf(() => verifier.verify(sign(NOW_S + 300), body)),
      'valid',
    );
    assert.equal(
      codeOf(() => verifier.verify(sign(NOW_S - 301), body)),
      'timestamp_too_old',
    );
    assert.equal(
      codeOf(() => verifier.verify(sign(NOW_S + 301), body)),
      'timestamp_too_far_ahead',
    );
    const strict = createVerifier({ secrets, toleranceSeconds: 10, now });
    assert.equal(
      codeOf(() => strict.verify(sign(NOW_S - 11), body)),
      'timestamp_too_old',
    );
  });

  test('malformed and missing signatures have their own codes', () => {
    const good = signWebhook({ secrets: secrets[0]!, id: 'evt_1', timestamp: NOW_S, body });
    const withSig = (sig: string) => ({ ...good, 'x-webhook-signature': sig });
    assert.equal(
      codeOf(() => verifier.verify({ 'x-webhook-id': 'evt_1' }, body)),
      'missing_signature',
    );
    assert.equal(
      codeOf(() => verifier.verify(withSig(''), body)),
      'missing_signature',
    );
    assert.equal(
      codeOf(() => verifier.verify(withSig('garbage'), body)),
      'malformed_signature',
    );
    assert.equal(
      codeOf(() => verifier.verify(withSig(`v1=${'a'.repeat(64)}`), body)),
      'malformed_signature',
    );
    assert.equal(
      codeOf(() => verifier.verify(withSig(`t=abc,v1=${'a'.repeat(64)}`), body)),
      'malformed_signature',
    );
    assert.equal(
      codeOf(() => verifier.verify(withSig(`t=${NOW_S},v1=abcd`), body)),
      'malformed_signature',
    );
    assert.equal(
      codeOf(() => verifier.verify(withSig(`t=${NOW_S}`), body)),
      'malformed_signature',
    );
    assert.equal(
      codeOf(() => verifier.verify(withSig(`t=${NOW_S},v1=${'a'.repeat(64)}`), body)),
      'signature_mismatch',
    );
    assert.equal(
      codeOf(() => verifier.verify({ ...good, 'x-webhook-timestamp': String(NOW_S - 1) }, body)),
      'malformed_signature',
    );
  });

  test('messages are plain words from the catalog', () => {
    assert.throws(() => verifier.verify({}, body), { message: 'missing signature' });
    const old = signWebhook({ secrets: secrets[0]!, id: 'evt_1', timestamp: NOW_S - 3600, body });
    assert.throws(() => verifier.verify(old, body), { message: 'timestamp too old' });
  });

  test('headers may be fetch Headers or mixed-case records', () => {
    const headers = signWebhook({ secrets: secrets[0]!, id: 'evt_1', timestamp: NOW_S, body });
    assert.equal(verifier.verify(new Headers(headers), body).eventId, 'evt_1');
    const mixed = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    assert.equal(verifier.verify(mixed, body).eventId, 'evt_1');
  });

  test('a parsed object is refused as a body', () => {
    const headers = signWebhook({ secrets: secrets[0]!, id: 'evt_1', timestamp: NOW_S, body });
    assert.throws(() => verifier.verify(headers, JSON.parse(body) as never), { code: 'invalid_argument' });
  });
});

describe('standard scheme', () => {
  const verifier = createVerifier({ secrets: whsec, scheme: 'standard', now });

  test('missing, malformed and mismatching signatures', () => {
    const good = signWebhook({ scheme: 'standard', secrets: whsec, id: 'msg_1', timestamp: NOW_S, body });
    assert.equal(
      codeOf(() => verifier.verify({ 'webhook-id': 'msg_1' }, body)),
      'missing_signature',
    );
    assert.equal(
      codeOf(() => verifier.verify({ ...good, 'webhook-id': '' }, body)),
      'malformed_signature',
    );
    assert.equal(
      codeOf(() => verifier.verify({ ...good, 'webhook-timestamp': 'soon' }, body)),
      'malformed_signature',
    );
    assert.equal(
      codeOf(() => verifier.verify({ ...good, 'webhook-signature': 'v1a,abc' }, body)),
      'malformed_signature',
    );
    assert.equal(
      codeOf(() => verifier.verify({ ...good, 'webhook-id': 'msg_2' }, body)),
      'signature_mismatch',
    );
    assert.equal(
      codeOf(() => verifier.verify(good, `${body} `)),
      'signature_mismatch',
    );
    assert.equal(
      codeOf(() => verifier.verify(good, body)),
      'valid',
    );
  });

  test('auto scheme picks by header; a hookline verifier refuses standard headers as missing', () => {
    const auto = createVerifier({ secrets: whsec, now });
    const std = signWebhook({ scheme: 'standard', secrets: whsec, id: 'msg_1', timestamp: NOW_S, body });
    const hl = signWebhook({ scheme: 'hookline', secrets: whsec, id: 'evt_1', timestamp: NOW_S, body });
    assert.equal(auto.verify(std, body).scheme, 'standard');
    assert.equal(auto.verify(hl, body).scheme, 'hookline');
    assert.equal(
      codeOf(() => createVerifier({ secrets: whsec, scheme: 'hookline', now }).verify(std, body)),
      'missing_signature',
    );
  });

  test('verifyWebhook one-shot', () => {
    const std = signWebhook({ scheme: 'standard', secrets: whsec, id: 'msg_1', body });
    assert.equal(verifyWebhook(std, body, { secrets: whsec }).eventId, 'msg_1');
  });
});

describe('verifier options and scheme choice', () => {
  test('toleranceSeconds must be a number ≥ 0; 0 accepts only the current second', () => {
    for (const bad of [-1, Number.NaN]) {
      assert.throws(() => createVerifier({ secrets: whsec, toleranceSeconds: bad }), {
        name: 'ReceiverError',
        code: 'invalid_argument',
        message: 'invalid argument: toleranceSeconds must be >= 0',
      });
    }
    const exact = createVerifier({ secrets: whsec, toleranceSeconds: 0, now });
    const sign = (ts: number) => signWebhook({ secrets: whsec, id: 'evt_1', timestamp: ts, body });
    assert.equal(
      codeOf(() => exact.verify(sign(NOW_S), body)),
      'valid',
    );
    assert.equal(
      codeOf(() => exact.verify(sign(NOW_S - 1), body)),
      'timestamp_too_old',
    );
  });

  test('a parsed object is refused before any signature work, with a message that says why', () => {
    const verifier = createVerifier({ secrets: whsec, now });
    assert.throws(() => verifier.verify({}, { a: 1 } as never), {
      name: 'ReceiverError',
      code: 'invalid_argument',
      message: /raw body must be a Buffer, Uint8Array or string .*got an object with keys \["a"\]/,
    });
  });

  test('a wrong call is a ReceiverError invalid_argument saying what to pass, never a raw TypeError', () => {
    const headers = signWebhook({ secrets: whsec, id: 'evt_1', timestamp: NOW_S, body });
    const wrong = (call: () => unknown, message: RegExp) =>
      assert.throws(call, (error: unknown) => {
        assert.ok(error instanceof ReceiverError, `not a ReceiverError: ${String(error)}`);
        assert.equal(error.code, 'invalid_argument');
        assert.match(error.message, message);
        return true;
      });
    wrong(() => verifyWebhook(body as never, headers as never, { secrets: whsec }), /headers must be .*got a string/);
    wrong(
      () => verifyWebhook(Buffer.from(body) as never, body, { secrets: whsec }),
      /headers must be .*got a Buffer \(the body\?\)/,
    );
    wrong(
      () => verifyWebhook(headers, body, undefined as never),
      /options must be an object with secrets.*got undefined/,
    );
    wrong(() => verifyWebhook(headers, body, 'whsec_x' as never), /options must be an object with secrets/);
    wrong(() => verifyWebhook(headers, body, { secrets: [] }), /options\.secrets: at least one secret is required/);
    wrong(() => verifyWebhook(headers, body, { secrets: '' }), /options\.secrets: a secret must not be empty/);
    wrong(() => verifyWebhook(headers, body, { secrets: whsec, scheme: 'svix' as never }), /options\.scheme must be/);
    wrong(() => verifyWebhook(headers, undefined as never, { secrets: whsec }), /raw body .*got undefined/);
  });

  test('a pinned scheme reads only its own headers; auto with no signature at all is missing_signature', () => {
    const std = signWebhook({ scheme: 'standard', secrets: whsec, id: 'msg_1', timestamp: NOW_S, body });
    const both = { ...std, 'x-webhook-signature': `t=${NOW_S},v1=${'0'.repeat(64)}` };
    assert.equal(createVerifier({ secrets: whsec, scheme: 'standard', now }).verify(both, body).scheme, 'standard');
    assert.equal(
      codeOf(() => createVerifier({ secrets: whsec, now }).verify(both, body)),
      'signature_mismatch',
      'auto prefers the hookline header',
    );
    assert.throws(() => createVerifier({ secrets: whsec, now }).verify({ 'webhook-id': 'msg_1' }, body), {
      code: 'missing_signature',
      message: 'missing signature',
    });
  });
});
