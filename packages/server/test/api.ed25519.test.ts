// Ed25519 endpoints over real HTTP and the CLI (docs/rules.md#signing-ed25519): create, the public key in the
// secrets view, rotation with two v1a entries, what a loopback receiver got, the refusals, and no secret key shown.
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createVerifier } from '@hookline/receiver';
import { json, runMain } from './cli-harness.ts';
import { ADMIN_TOKEN, type Received, startReceiver, startTestServer, type TestServer } from './server-harness.ts';

let t: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let ten: string;

before(async () => {
  t = await startTestServer();
  receiver = await startReceiver();
  ten = await t.tenant();
});
after(async () => {
  await receiver.close();
  await t.close();
});

const WHPK = /^whpk_[A-Za-z0-9+/]{43}=$/;

/** node:crypto's own verdict on the request's v1a entries under a whpk_ key, without the toolkit. */
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
    .some((item) => item.startsWith('v1a,') && verify(null, content, key, Buffer.from(item.slice(4), 'base64')));
}

async function testDelivery(id: string): Promise<Received> {
  const before = receiver.received.length;
  const sent = await t.api('POST', `/v1/tenants/${ten}/endpoints/${id}/test`);
  assert.equal(sent.status, 200);
  assert.equal(sent.body.outcome, 'success');
  assert.equal(receiver.received.length, before + 1);
  return receiver.received[before]!;
}

test('signing ed25519: the public key is shown, the secret key never; deliveries carry v1a that whpk_ verifies; rotation signs twice', async () => {
  const c = await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: receiver.url, signing: 'ed25519' } });
  assert.equal(c.status, 201);
  assert.deepEqual(
    [c.body.signing, c.body.scheme, c.body.secret],
    ['ed25519', 'standard', null],
    'the scheme defaults to standard',
  );
  assert.match(c.body.public_key, WHPK);
  const id = c.body.id as string;

  const s0 = await t.api('GET', `/v1/tenants/${ten}/endpoints/${id}/secret`);
  assert.deepEqual(
    [s0.body.signing, s0.body.public_key, s0.body.secret, s0.body.secrets.length],
    ['ed25519', c.body.public_key, null, 1],
  );
  assert.equal((await t.api('GET', `/v1/tenants/${ten}/endpoints/${id}`)).body.signing, 'ed25519');

  const first = await testDelivery(id);
  assert.match(String(first.headers['webhook-signature']), /^v1a,[A-Za-z0-9+/]{86}==$/);
  assert.equal(first.headers['x-webhook-signature'], undefined);
  assert.ok(cryptoVerifies(first, c.body.public_key));
  const verifier = createVerifier({ secrets: [{ kid: s0.body.kid, secret: c.body.public_key }] });
  assert.equal(verifier.verify(first.headers, first.body).kid, s0.body.kid);

  const rotated = await t.api('POST', `/v1/tenants/${ten}/endpoints/${id}/secret/rotate`, {
    body: { overlap_seconds: 3600 },
  });
  assert.equal(rotated.status, 200);
  assert.equal(rotated.body.secrets.length, 2);
  assert.ok(
    rotated.body.secrets.every(
      (s: { signing: string; secret: null; public_key: string }) =>
        s.signing === 'ed25519' && s.secret === null && WHPK.test(s.public_key),
    ),
  );
  assert.notEqual(rotated.body.public_key, c.body.public_key);
  const during = await testDelivery(id);
  const items = String(during.headers['webhook-signature']).split(' ');
  assert.equal(items.length, 2, 'both keys sign during the overlap');
  assert.ok(items.every((i) => i.startsWith('v1a,')));
  assert.ok(cryptoVerifies(during, c.body.public_key) && cryptoVerifies(during, rotated.body.public_key));
  verifier.verify(during.headers, during.body);
  createVerifier({ secrets: rotated.body.public_key }).verify(during.headers, during.body);

  // The secret key is sealed at rest and appears in no answer: only the public halves leave the server.
  const sealed = await t.server.runtime.store.catalog.listSecrets(id);
  assert.equal(sealed.length, 2);
  assert.ok(
    sealed.every((s) => s.sealed.startsWith('v1:') && !s.sealed.includes('whsk_')),
    'sealed, not plain',
  );
  const everything = JSON.stringify([
    c.body,
    s0.body,
    rotated.body,
    (await t.api('GET', `/v1/tenants/${ten}/endpoints`)).body,
    (await t.api('GET', `/v1/tenants/${ten}/endpoints/${id}`)).body,
  ]);
  assert.ok(!everything.includes('whsk_'), 'no secret key in any answer');
});

test('refusals: ed25519 needs the standard scheme, signing is fixed at creation, unknown values are validation errors', async () => {
  const hookline = await t.api('POST', `/v1/tenants/${ten}/endpoints`, {
    body: { url: receiver.url, signing: 'ed25519', scheme: 'hookline' },
  });
  assert.deepEqual([hookline.status, hookline.body.error.code], [400, 'signing_needs_standard_scheme']);
  const bad = await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: receiver.url, signing: 'rsa' } });
  assert.deepEqual([bad.status, bad.body.error.code], [400, 'invalid_request']);

  const ed = (
    await t.api('POST', `/v1/tenants/${ten}/endpoints`, {
      body: { url: receiver.url, signing: 'ed25519', scheme: 'standard' },
    })
  ).body;
  const toHookline = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${ed.id}`, { body: { scheme: 'hookline' } });
  assert.deepEqual([toHookline.status, toHookline.body.error.code], [400, 'signing_needs_standard_scheme']);
  const toHmac = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${ed.id}`, { body: { signing: 'hmac' } });
  assert.deepEqual([toHmac.status, toHmac.body.error.code], [409, 'signing_immutable']);
  assert.match(toHmac.body.error.message, /signs with ed25519; create a new endpoint to sign with hmac/);
  assert.equal(
    (
      await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${ed.id}`, {
        body: { signing: 'ed25519', description: 'same' },
      })
    ).status,
    200,
    'naming its own signing is fine',
  );

  const hmac = (await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: receiver.url } })).body;
  assert.deepEqual([hmac.signing, hmac.scheme, hmac.public_key], ['hmac', 'hookline', null]);
  assert.match(hmac.secret, /^whsec_/);
  const toEd = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${hmac.id}`, { body: { signing: 'ed25519' } });
  assert.deepEqual([toEd.status, toEd.body.error.code], [409, 'signing_immutable']);
  const s = (await t.api('GET', `/v1/tenants/${ten}/endpoints/${hmac.id}/secret`)).body;
  assert.deepEqual([s.signing, s.secret, s.public_key], ['hmac', hmac.secret, null]);
});

test('CLI: endpoints add --signing ed25519 prints the public key; secret and rotate show public keys; a bad --signing is a usage error', async () => {
  const env = { HOOKLINE_URL: t.url, HOOKLINE_TOKEN: ADMIN_TOKEN };
  const add = await runMain(['endpoints', 'add', receiver.url, '--tenant', ten, '--signing', 'ed25519'], env);
  assert.equal(add.code, 0, add.stderr);
  assert.match(add.stdout, /signing:\s+ed25519/);
  const shownKey = /public key:\s+(whpk_\S+)/.exec(add.stdout)?.[1];
  assert.match(shownKey ?? '', WHPK);
  assert.doesNotMatch(add.stdout, /whsk_|signing secret/);
  const id = /^id:\s+(ep_\S+)/m.exec(add.stdout)?.[1] as string;

  const secret = await runMain(['endpoints', 'secret', id, '--tenant', ten], env);
  assert.equal(secret.code, 0, secret.stderr);
  assert.match(secret.stdout, /PUBLIC KEY/);
  assert.ok(secret.stdout.includes(shownKey!));
  const rotate = await runMain(['endpoints', 'rotate', id, '--tenant', ten], env);
  assert.equal(rotate.code, 0, rotate.stderr);
  assert.match(rotate.stdout, /^new public key sec_\S+: whpk_/);
  const live = json(await runMain(['endpoints', 'secret', id, '--tenant', ten, '--json'], env));
  assert.equal(live.secrets.length, 2);
  assert.ok(
    live.secrets.every((k: { public_key: string; secret: null }) => WHPK.test(k.public_key) && k.secret === null),
  );

  const wrong = await runMain(['endpoints', 'add', receiver.url, '--tenant', ten, '--signing', 'rsa'], env);
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /--signing must be hmac or ed25519, got 'rsa'/);
  const clash = await runMain(
    ['endpoints', 'add', receiver.url, '--tenant', ten, '--signing', 'ed25519', '--scheme', 'hookline'],
    env,
  );
  assert.notEqual(clash.code, 0);
  assert.match(clash.stderr, /ed25519 signing \(v1a\) exists only in the standard scheme/);
});
