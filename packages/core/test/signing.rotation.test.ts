// What a loopback receiver actually got from the dispatcher, checked by the receiver toolkit (and, for `standard`,
// the standardwebhooks library) across a secret rotation: both secrets sign during the overlap, the old one stops
// at its retirement time, and the endpoint's scheme is the one on the wire. An ed25519 endpoint (v1a) rotates the
// same way, its receiver holding only whpk_ public keys.
import assert from 'node:assert/strict';
import { createPublicKey, verify as edVerify } from 'node:crypto';
import { mock, test } from 'node:test';
import { createVerifier, ReceiverError, type SignatureScheme } from '@hookline/receiver';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { VirtualClock } from '../src/clock.ts';
import { testEngine } from '../testing/harness.ts';
import { type Received, startReceiver } from '../testing/receiver.ts';
import { H, MIN } from '../testing/time.ts';

const SIGNATURE_HEADER: Record<SignatureScheme, string> = {
  hookline: 'x-webhook-signature',
  standard: 'webhook-signature',
};

type Kind = SignatureScheme | 'ed25519';
const schemeOf = (kind: Kind): SignatureScheme => (kind === 'ed25519' ? 'standard' : kind);
/** What a receiver verifies with: the HMAC secret, or the ed25519 public key (the secret key is never shown). */
const verifyKey = (s: { kid: string; secret: string | null; publicKey: string | null; expiresAt: number | null }) => ({
  kid: s.kid,
  secret: (s.publicKey ?? s.secret)!,
  expiresAt: s.expiresAt,
});

/** An engine on a virtual clock, one endpoint of `kind` on a real receiver, and a way to send one event. */
async function rig(kind: Kind) {
  const scheme = schemeOf(kind);
  // Whole seconds near the real time: the standardwebhooks library checks timestamps against Date (mocked below).
  const t = await testEngine({ clock: new VirtualClock(Math.floor(Date.now() / 1000) * 1000) });
  const rx = await startReceiver(() => 200, { clock: t.clock });
  const created = await t.engine.endpoints.create(t.tenantId, {
    url: rx.url,
    policy: 'standard',
    scheme,
    ...(kind === 'ed25519' ? { signing: 'ed25519' } : {}),
  });
  const { endpoint } = created;
  const [first] = await t.engine.endpointSecrets.list(t.tenantId, endpoint.id);
  assert.equal(first.secret, created.secret);
  assert.equal(first.publicKey, created.publicKey);
  assert.equal(first.signing, kind === 'ed25519' ? 'ed25519' : 'hmac');
  const secret = verifyKey(first).secret;
  let n = 0;
  return {
    ...t,
    endpoint,
    original: { kid: first.kid, secret },
    /** Accepts one event, runs the dispatcher once, returns the request the receiver got for it. */
    async send(): Promise<Received> {
      const eventId = `evt-${scheme}-${++n}`;
      await t.engine.events.accept(t.tenantId, { event_id: eventId, type: 'order.created', data: { n } });
      await t.engine.runDue();
      const got = rx.received.filter(
        (r) => r.headers['x-webhook-id'] === eventId || r.headers['webhook-id'] === eventId,
      );
      assert.equal(got.length, 1, `one request for ${eventId}`);
      return got[0];
    },
    async close() {
      await rx.close();
      await t.close();
    },
  };
}

type Rig = Awaited<ReturnType<typeof rig>>;

/** Verifies with exactly these secrets (pinned scheme, then auto-detected); returns the kid that matched. */
function verifyWith(
  r: Rig,
  req: Received,
  scheme: SignatureScheme,
  secrets: Array<{ kid: string; secret: string }>,
): string | undefined {
  const now = () => r.clock.now();
  const pinned = createVerifier({ secrets, scheme, now }).verify(req.headers, req.body);
  const auto = createVerifier({ secrets, now }).verify(req.headers, req.body);
  assert.equal(pinned.scheme, scheme);
  assert.equal(auto.scheme, scheme, 'the receiver detects the scheme that was sent');
  // Without kids the verifier must find a matching HMAC among the keys: the kid alone proves nothing.
  createVerifier({ secrets: secrets.map((s) => s.secret), scheme, now }).verify(req.headers, req.body);
  return pinned.kid;
}

function refusedWith(r: Rig, req: Received, scheme: SignatureScheme, secret: { kid: string; secret: string }): void {
  assert.throws(
    () => createVerifier({ secrets: [secret], scheme, now: () => r.clock.now() }).verify(req.headers, req.body),
    (err) => err instanceof ReceiverError && err.code === 'signature_mismatch',
  );
}

/** The standardwebhooks library's verdict, with Date set to the virtual clock for its 5-minute check only. */
function standardLibraryAccepts(r: Rig, req: Received, secret: string): boolean {
  mock.timers.enable({ apis: ['Date'], now: r.clock.now() });
  try {
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    new StandardWebhook(secret).verify(req.body.toString('utf8'), headers);
    return true;
  } catch {
    return false;
  } finally {
    mock.timers.reset();
  }
}

function signatureCount(req: Received, kind: Kind): number {
  const value = String(req.headers[SIGNATURE_HEADER[schemeOf(kind)]]);
  if (kind === 'hookline') return value.split(',').filter((p) => p.startsWith('v1=')).length;
  const items = value.split(' ');
  assert.ok(
    items.every((i) => i.startsWith(kind === 'ed25519' ? 'v1a,' : 'v1,')),
    `${kind} signs with ${kind === 'ed25519' ? 'v1a' : 'v1'} only: ${value}`,
  );
  return items.length;
}

/** Independently of the toolkit: node:crypto's verify of a v1a entry under a whpk_ key. */
function cryptoVerifies(req: Received, whpk: string): boolean {
  const key = createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(whpk.slice(5), 'base64')]),
    format: 'der',
    type: 'spki',
  });
  const content = Buffer.concat([
    Buffer.from(`${String(req.headers['webhook-id'])}.${String(req.headers['webhook-timestamp'])}.`),
    req.body,
  ]);
  return String(req.headers['webhook-signature'])
    .split(' ')
    .some((i) => edVerify(null, content, key, Buffer.from(i.slice(4), 'base64')));
}

for (const kind of ['hookline', 'standard', 'ed25519'] as const) {
  const scheme = schemeOf(kind);
  const other = scheme === 'hookline' ? 'standard' : 'hookline';

  test(`${kind}: real attempts carry the ${scheme} headers; across a rotation both keys sign during the overlap and the old one stops after it`, async () => {
    const r = await rig(kind);
    try {
      // Before any rotation: one signature, by the endpoint's only secret, in the endpoint's scheme only.
      const before = await r.send();
      assert.ok(before.headers[SIGNATURE_HEADER[scheme]], `${SIGNATURE_HEADER[scheme]} sent`);
      assert.equal(
        before.headers[SIGNATURE_HEADER[other]],
        undefined,
        `no ${SIGNATURE_HEADER[other]} on a ${scheme} endpoint`,
      );
      assert.equal(signatureCount(before, kind), 1);
      const kid0 = verifyWith(r, before, scheme, [r.original]);
      if (scheme === 'hookline') assert.equal(kid0, r.original.kid);
      if (kind === 'standard') assert.ok(standardLibraryAccepts(r, before, r.original.secret));
      if (kind === 'ed25519') assert.ok(cryptoVerifies(before, r.original.secret));

      const rotatedAt = r.clock.now();
      const live = await r.engine.endpointSecrets.rotate(r.tenantId, r.endpoint.id, H);
      assert.equal(live.length, 2);
      const [fresh, old] = live.map(verifyKey);
      assert.deepEqual(
        live.map((s) => s.signing),
        kind === 'ed25519' ? ['ed25519', 'ed25519'] : ['hmac', 'hmac'],
        "a rotation keeps the endpoint's signing",
      );
      assert.equal(old.kid, r.original.kid);
      assert.equal(old.expiresAt, rotatedAt + H);
      assert.notEqual(fresh.secret, old.secret);

      // During the overlap (up to its last millisecond) each secret alone verifies the same request.
      for (const at of [rotatedAt + 30 * MIN, rotatedAt + H - 1]) {
        r.clock.set(at);
        const during = await r.send();
        assert.equal(signatureCount(during, kind), 2, 'every live secret signs');
        const kidOld = verifyWith(r, during, scheme, [old]);
        const kidNew = verifyWith(r, during, scheme, [fresh]);
        if (scheme === 'hookline') {
          assert.deepEqual([kidNew, kidOld], [fresh.kid, old.kid]);
          const kids = String(during.headers['x-webhook-signature'])
            .split(',')
            .filter((p) => p.startsWith('kid='));
          assert.deepEqual(kids, [`kid=${fresh.kid}`, `kid=${old.kid}`], 'newest first');
        }
        if (kind === 'ed25519') assert.ok(cryptoVerifies(during, old.secret) && cryptoVerifies(during, fresh.secret));
        if (kind === 'standard') {
          assert.ok(
            standardLibraryAccepts(r, during, old.secret),
            'standardwebhooks accepts the old secret during the overlap',
          );
          assert.ok(
            standardLibraryAccepts(r, during, fresh.secret),
            'standardwebhooks accepts the new secret during the overlap',
          );
        }
      }

      // At the retirement time the old secret stops signing; the new one alone does.
      r.clock.set(rotatedAt + H);
      const afterwards = await r.send();
      assert.equal(signatureCount(afterwards, kind), 1);
      verifyWith(r, afterwards, scheme, [fresh]);
      refusedWith(r, afterwards, scheme, old);
      if (kind === 'ed25519')
        assert.equal(cryptoVerifies(afterwards, old.secret), false, 'the retired key no longer signs');
      if (kind === 'standard') {
        assert.ok(standardLibraryAccepts(r, afterwards, fresh.secret));
        assert.equal(
          standardLibraryAccepts(r, afterwards, old.secret),
          false,
          'standardwebhooks refuses the retired secret',
        );
      }
      assert.deepEqual(
        (await r.engine.endpointSecrets.list(r.tenantId, r.endpoint.id)).map((s) => s.kid),
        [fresh.kid],
      );

      if (kind === 'ed25519') {
        // ed25519 exists only in the standard scheme, and an endpoint's signing is fixed at creation.
        await assert.rejects(r.engine.endpoints.update(r.tenantId, r.endpoint.id, { scheme: 'hookline' }), {
          code: 'signing_needs_standard_scheme',
        });
        await assert.rejects(r.engine.endpoints.update(r.tenantId, r.endpoint.id, { signing: 'hmac' }), {
          code: 'signing_immutable',
        });
        return;
      }
      // Switching the endpoint's scheme changes what the very next attempt carries, with the same secret.
      await r.engine.endpoints.update(r.tenantId, r.endpoint.id, { scheme: other });
      const switched = await r.send();
      assert.equal(switched.headers[SIGNATURE_HEADER[scheme]], undefined);
      verifyWith(r, switched, other, [fresh]);
    } finally {
      await r.close();
    }
  });
}
