// An endpoint's way out edited from its console page, in a real browser (docs/rules.md#egress-proxy): the proxy, a
// client certificate pasted as PEM (the page then shows its subject and expiry, never the key) and the OAuth2 client
// (the secret is never shown), read back through the API; a certificate whose key does not match is refused.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { haveOpenssl, type TestCa, testCa } from '@hookline/core/testing';
import type { Page } from 'playwright-core';
import { browserTest, chromiumMissing, openBrowser, shot } from './console-browser.ts';
import { startTestServer, type TestServer, until } from './server-harness.ts';

let t: TestServer;
let ca: TestCa;
let tenant = '';
let endpoint = '';
let key = '';
const skip = chromiumMissing || !haveOpenssl;

before(async () => {
  if (skip) return;
  ca = testCa();
  t = await startTestServer();
  tenant = await t.tenant('Echo Shop');
  key = (await t.api('POST', `/v1/tenants/${tenant}/api-keys`, { body: { name: 'console' } })).body.key;
  endpoint = (await t.api('POST', `/v1/tenants/${tenant}/endpoints`, { body: { url: 'https://hooks.example.com/in' } }))
    .body.id;
});

after(async () => {
  await t?.close();
  ca?.remove();
});

async function endpointPage(page: Page): Promise<void> {
  await page.goto(`${t.url}/console/`);
  await page.getByLabel('Admin token or tenant API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Echo Shop — overview' }).waitFor();
  await page.goto(`${t.url}/console/#/t/${tenant}/endpoints/${endpoint}`);
  await page.getByLabel('Token URL').waitFor();
}

const read = async () => (await t.api('GET', `/v1/tenants/${tenant}/endpoints/${endpoint}`)).body;

test('proxy, client certificate and OAuth2 client are set from the page; the key and the secret are never shown', {
  ...browserTest,
  skip: browserTest.skip || (!haveOpenssl && 'openssl not installed'),
}, async (tc) => {
  const client = ca.issue('echo-client', { usage: 'client', days: 10 });
  const other = ca.issue('other', { usage: 'client' });
  const { page } = await openBrowser(tc);
  await endpointPage(page);

  // A key that is not the certificate's: the server refuses, nothing is saved.
  await page.getByLabel('Certificate (PEM)').fill(client.cert.toString());
  await page.getByLabel('Private key (PEM)').fill(other.key.toString());
  await page.getByRole('button', { name: 'Save way out' }).click();
  await page.locator('#endpoint-status', { hasText: 'client_certificate is invalid' }).waitFor();
  assert.equal((await read()).client_certificate, null);

  await page.getByLabel('Proxy').fill('none');
  await page.getByLabel('Private key (PEM)').fill(client.key.toString());
  await page.getByLabel('Token URL').fill('https://auth.example.com/oauth/token');
  await page.getByLabel('Client id').fill('echo');
  await page.getByLabel('Client secret').fill('echo-s3cret');
  await page.getByLabel('Scope').fill('webhooks');
  await page.getByRole('button', { name: 'Save way out' }).click();
  const saved = await until(read, (e) => e.client_certificate !== null, { what: 'the way out to be saved' });
  assert.equal(saved.proxy, 'none');
  assert.match(saved.client_certificate.subject, /CN=echo-client/);
  assert.deepEqual(saved.oauth2, {
    token_url: 'https://auth.example.com/oauth/token',
    client_id: 'echo',
    scope: 'webhooks',
    audience: null,
    has_secret: true,
  });
  // The page shows the certificate (expiring within 14 days: flagged), and neither the key nor the secret.
  await page.locator('#certificate-now', { hasText: 'echo-client' }).waitFor();
  await page.locator('#certificate-now', { hasText: 'expires within 14 days' }).waitFor();
  await shot(page, 'endpoint-egress');
  const html = await page.content();
  assert.equal(html.includes('PRIVATE KEY'), false, 'the key is not on the page');
  assert.equal(html.includes('echo-s3cret'), false, 'the secret is not on the page');
  assert.equal(await page.getByLabel('Client secret').inputValue(), '');

  // Saving again without a secret keeps it; emptying the token URL and removing the certificate clear them.
  await page.getByLabel('Remove the client certificate').check();
  await page.getByLabel('Token URL').fill('');
  await page.getByLabel('Proxy').fill('');
  await page.getByRole('button', { name: 'Save way out' }).click();
  const cleared = await until(read, (e) => e.client_certificate === null && e.oauth2 === null, {
    what: 'the way out to be cleared',
  });
  assert.equal(cleared.proxy, null);
});
