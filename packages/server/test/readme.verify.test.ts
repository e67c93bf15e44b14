// The README's plain node:crypto verification snippet, run as written against headers the engine's signer produces.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { generateEd25519Secret, generateSecret, publicKeyOf, signHeaders } from '@hookline/core';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const block = /<!-- verify-snippet[^>]*-->\n```js\n([\s\S]*?)```/.exec(readme);

type Verify = (secret: string, rawBody: string | Buffer, header: string, nowSec?: number) => boolean;

async function loadSnippet(): Promise<Verify> {
  assert.ok(block, 'README.md has the verify-snippet block');
  const code = block[1];
  assert.ok(code.trim().split('\n').length <= 8, 'the snippet stays 8 lines');
  const file = join(mkdtempSync(join(tmpdir(), 'hl-readme-')), 'verify.mjs');
  writeFileSync(file, code);
  return ((await import(pathToFileURL(file).href)) as { verify: Verify }).verify;
}

test('the README snippet verifies a hookline signature made with a whsec_ secret, during a rotation too, and rejects tampering', async () => {
  const verify = await loadSnippet();
  const [current, previous] = [generateSecret(), generateSecret()];
  const body = Buffer.from(
    '{"event_id":"ord_1","type":"order.created","version":"1","occurred_at":"2026-12-01T00:00:00Z","data":{"total":4200}}',
  );
  const t = 1_796_083_200;
  const header = signHeaders({
    scheme: 'hookline',
    eventId: 'ord_1',
    deliveryId: 'dlv_1',
    timestampSec: t,
    body,
    secrets: [
      { kid: 'k2', secret: current },
      { kid: 'k1', secret: previous },
    ],
  })['X-Webhook-Signature'];
  assert.equal(verify(current, body, header, t), true);
  assert.equal(verify(previous, body, header, t + 60), true, 'the old secret still matches during the overlap');
  assert.equal(verify(generateSecret(), body, header, t), false, 'another secret');
  assert.equal(verify(current, Buffer.concat([body, Buffer.from(' ')]), header, t), false, 'a changed body');
  assert.equal(verify(current, body, header, t + 301), false, 'a timestamp more than 5 minutes old');
  assert.equal(verify(current, body, header.replace(/t=\d+/, `t=${t + 1}`), t), false, 'a changed timestamp');
});

const v1aBlock = /<!-- verify-v1a-snippet[^>]*-->\n```js\n([\s\S]*?)```/.exec(readme);
type VerifyV1a = (whpk: string, rawBody: string | Buffer, headers: Record<string, string>, nowSec?: number) => boolean;

test('the README v1a snippet verifies what an ed25519 endpoint sends, during a rotation too, with its whpk_ key alone', async () => {
  assert.ok(v1aBlock, 'README.md has the verify-v1a-snippet block');
  const file = join(mkdtempSync(join(tmpdir(), 'hl-readme-')), 'verify-v1a.mjs');
  writeFileSync(file, v1aBlock[1]);
  const { verifyV1a } = (await import(pathToFileURL(file).href)) as { verifyV1a: VerifyV1a };
  const [current, previous] = [generateEd25519Secret(), generateEd25519Secret()];
  const body = Buffer.from(
    '{"event_id":"ord_1","type":"order.created","version":"1","occurred_at":"2026-12-01T00:00:00Z","data":{"total":4200}}',
  );
  const t = 1_796_083_200;
  const headers = signHeaders({
    scheme: 'standard',
    eventId: 'ord_1',
    deliveryId: 'dlv_1',
    timestampSec: t,
    body,
    secrets: [
      { kid: 'k2', secret: current },
      { kid: 'k1', secret: previous },
    ],
  });
  assert.equal(verifyV1a(publicKeyOf(current), body, headers, t), true);
  assert.equal(
    verifyV1a(publicKeyOf(previous), body.toString('utf8'), headers, t),
    true,
    'the older key during the overlap',
  );
  assert.equal(verifyV1a(publicKeyOf(generateEd25519Secret()), body, headers, t), false, 'another key');
  assert.equal(
    verifyV1a(publicKeyOf(current), Buffer.concat([body, Buffer.from(' ')]), headers, t),
    false,
    'another body',
  );
  assert.equal(
    verifyV1a(publicKeyOf(current), body, { ...headers, 'webhook-id': 'ord_2' }, t),
    false,
    'the id is signed',
  );
  assert.equal(verifyV1a(publicKeyOf(current), body, headers, t + 301), false, 'too old');
});

test('the tour is one paste: it writes verify.mjs itself, byte for byte the snippet this file runs', () => {
  assert.ok(block, 'README.md has the verify-snippet block');
  const tour = /<!-- tour[^>]*-->\n```sh\n([\s\S]*?)```/.exec(readme);
  assert.ok(tour, 'README.md has the tour block');
  const written = /cat > verify\.mjs <<'JS'\n([\s\S]*?)JS\n/.exec(tour[1]);
  assert.ok(written, 'the tour writes verify.mjs');
  assert.equal(written[1], block[1]);
  // Written before the receiver that imports it, and nothing else the tour runs is left for the reader to create.
  assert.ok(tour[1].indexOf('cat > verify.mjs') < tour[1].indexOf('node receiver.mjs'));
  // Outside the repository a bare `npx hookline` would go to the registry: the tour calls the CLI by its path.
  assert.doesNotMatch(tour[1], /\bnpx hookline\b/);
  assert.match(tour[1], /node_modules\/\.bin\/hookline/);
});
