// An endpoint's delivery options edited from its console page, in a real browser: the rate limit, the payload filter
// and the custom headers (docs/console.md#pages), read back through the API and seen by the receiver; what the form
// or the server refuses is said on the page and nothing is saved.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { browserTest, chromiumMissing, openBrowser, shot } from './console-browser.ts';
import { startReceiver, startTestServer, type TestServer, until } from './server-harness.ts';

let t: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let tenant = '';
let endpoint = '';
let key = '';

before(async () => {
  if (chromiumMissing) return;
  t = await startTestServer();
  receiver = await startReceiver(() => 200);
  tenant = await t.tenant('Delta Shop');
  key = (await t.api('POST', `/v1/tenants/${tenant}/api-keys`, { body: { name: 'console' } })).body.key;
  endpoint = (
    await t.api('POST', `/v1/tenants/${tenant}/endpoints`, {
      body: { url: receiver.url, description: 'shop-hooks', event_types: ['order.*'] },
    })
  ).body.id;
});

after(async () => {
  await t?.close();
  await receiver?.close();
});

async function endpointPage(page: Page): Promise<void> {
  await page.goto(`${t.url}/console/`);
  await page.getByLabel('Admin token or tenant API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Delta Shop — overview' }).waitFor();
  await page.goto(`${t.url}/console/#/t/${tenant}/endpoints/${endpoint}`);
  await page.getByLabel('Payload filter (JSON)').waitFor();
}

const read = async () => (await t.api('GET', `/v1/tenants/${tenant}/endpoints/${endpoint}`)).body;

test(
  'the rate limit, payload filter and custom headers are edited from the page and take effect',
  browserTest,
  async (tc) => {
    const { page } = await openBrowser(tc);
    await endpointPage(page);
    await page.getByLabel('Rate limit (sends a second)').fill('25');
    await page.getByLabel('Payload filter (JSON)').fill('{"path": "data.status", "in": ["paid"]}');
    await page.getByLabel('Custom headers').fill('X-Shop: delta\n\nX-Region: eu-1');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.locator('#endpoint-status', { hasText: 'Settings saved' }).waitFor();
    await shot(page, 'endpoint-settings-options');
    const saved = await read();
    assert.equal(saved.rate_limit_per_s, 25);
    assert.deepEqual(saved.payload_filter, { path: 'data.status', in: ['paid'] });
    assert.deepEqual(saved.headers, { 'X-Shop': 'delta', 'X-Region': 'eu-1' });
    // The page shows what was saved, and the form opens with it again.
    await page.locator('#headers-value', { hasText: 'X-Shop' }).waitFor();
    assert.equal(await page.getByLabel('Rate limit (sends a second)').inputValue(), '25');
    assert.deepEqual(JSON.parse(await page.getByLabel('Payload filter (JSON)').inputValue()), saved.payload_filter);

    // The filter decides which events get a delivery; the headers go out with it.
    const before = receiver.received.length;
    const paid = await t.api('POST', `/v1/tenants/${tenant}/events`, {
      body: { event_id: 'ord-1-paid', type: 'order.updated', data: { status: 'paid' } },
    });
    const open = await t.api('POST', `/v1/tenants/${tenant}/events`, {
      body: { event_id: 'ord-2-open', type: 'order.updated', data: { status: 'open' } },
    });
    assert.equal(paid.body.deliveries.length, 1);
    assert.equal(open.body.deliveries.length, 0, 'the filter gave the unpaid order no delivery');
    await until(
      async () => receiver.received.length,
      (n) => n > before,
    );
    const sent = receiver.received.at(-1)!;
    assert.equal(sent.headers['x-shop'], 'delta');
    assert.equal(sent.headers['x-region'], 'eu-1');

    // Emptied, they are cleared.
    await page.getByLabel('Rate limit (sends a second)').fill('');
    await page.getByLabel('Payload filter (JSON)').fill('');
    await page.getByLabel('Custom headers').fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    // The first save's "Settings saved" may still be on the page: wait for what the server holds, not for the text.
    const cleared = await until(read, (e) => e.rate_limit_per_s === null && e.payload_filter === null, {
      what: 'the emptied settings to be saved',
    });
    assert.equal(cleared.rate_limit_per_s, null);
    assert.equal(cleared.payload_filter, null);
    assert.deepEqual(cleared.headers, {});
  },
);

test(
  'a filter that is not JSON, a header line without a colon, or a filter the server refuses is said on the page; nothing is saved',
  browserTest,
  async (tc) => {
    const { page } = await openBrowser(tc);
    await endpointPage(page);
    const saved = await read();

    await page.getByLabel('Payload filter (JSON)').fill('{"path": "data.status",');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.locator('#settings-invalid', { hasText: 'Payload filter: not valid JSON' }).waitFor();

    await page.getByLabel('Payload filter (JSON)').fill('');
    await page.getByLabel('Custom headers').fill('X-Good: 1\nno colon here');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.locator('#settings-invalid', { hasText: 'Custom headers, line 2' }).waitFor();

    // Valid JSON, but a path outside the envelope: the server's invalid_filter message is shown.
    await page.getByLabel('Custom headers').fill('');
    await page.getByLabel('Payload filter (JSON)').fill('{"path": "status", "equals": "paid"}');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.locator('#endpoint-status', { hasText: 'payload_filter is invalid' }).waitFor();
    assert.equal(await page.locator('#settings-invalid').count(), 0, 'the form passed it on; the server refused it');
    await shot(page, 'endpoint-settings-refused');
    assert.deepEqual(await read(), saved, 'nothing was saved');
  },
);
