// The console in a real browser: `hookline serve`'s app on a temporary SQLite file, a loopback receiver whose answers
// the test switches, and Debian's Chromium driven by playwright-core (docs/console.md): sign-in, sessions, portal
// links, CSRF, the overview, an endpoint's page and replays. Every page visited is screenshotted into
// .cache/console-screenshots/ (not committed). The other pages: console.pages.browser.test.ts.
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { VirtualClock } from '@hookline/core';
import type { BrowserContext, Page } from 'playwright-core';
import { openBrowser, browserTest as opts, shot } from './console-browser.ts';
import { consoleWorld, failedDelivery as failed, signIn as signInAs } from './console-world.ts';
import { ADMIN_TOKEN, startTestServer, until } from './server-harness.ts';

const w = consoleWorld();

/** A fresh browser profile, closed (and deleted) when the test ends. */
function browser(tc: TestContext): Promise<{ page: Page; context: BrowserContext }> {
  return openBrowser(tc);
}
const signIn = (page: Page, token: string) => signInAs(w, page, token);
const failedDelivery = (tenant: string, eventId: string) => failed(w, tenant, eventId);

test(
  'the admin token signs in, sees both tenants, and the session cookie is HttpOnly and SameSite=Strict',
  opts,
  async (tc) => {
    const { page, context } = await browser(tc);
    await signIn(page, ADMIN_TOKEN);
    const table = page.locator('#tenants');
    await table.getByRole('link', { name: 'Acme CRM' }).waitFor();
    await table.getByRole('link', { name: 'Beta Chat' }).waitFor();
    await shot(page, 'tenants');
    const [cookie] = (await context.cookies(w.t.url)).filter((c) => c.name === 'hl_console');
    assert.ok(cookie, 'the session cookie is set');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Strict');
    assert.equal(await page.evaluate(() => document.cookie), '', 'the page script cannot read the session');
    // The overview of a tenant.
    await table.getByRole('link', { name: 'Acme CRM' }).click();
    await page.getByRole('heading', { name: 'Acme CRM — overview' }).waitFor();
    await page.locator('#minute-chart').waitFor();
    await shot(page, 'overview');
  },
);

test('the overview draws deliveries per minute and lists paused endpoints', opts, async (tc) => {
  await failedDelivery(w.a, 'evt-chart-1');
  w.answer = 200;
  const ok = await w.t.api('POST', `/v1/tenants/${w.a}/events`, {
    body: { event_id: 'evt-chart-2', type: 'order.created', data: {} },
  });
  await until(
    () => w.t.api('GET', `/v1/tenants/${w.a}/deliveries/${ok.body.deliveries[0].id}`),
    (r) => r.body.status === 'succeeded',
  );
  const minutes = (await w.t.api('GET', `/v1/tenants/${w.a}/stats/minutes`)).body;
  const total = (k: 'succeeded' | 'failed') =>
    minutes.minutes.reduce((n: number, m: Record<string, number>) => n + m[k], 0);
  assert.ok(total('succeeded') >= 1 && total('failed') >= 1);
  const paused = (
    await w.t.api('POST', `/v1/tenants/${w.b}/endpoints`, { body: { url: w.receiver.url, description: 'chat-paused' } })
  ).body.id;
  await w.t.api('PATCH', `/v1/tenants/${w.b}/endpoints/${paused}`, { body: { status: 'paused' } });
  const { page } = await browser(tc);
  await signIn(page, ADMIN_TOKEN);
  await page.locator('#tenants').waitFor();
  await page.goto(`${w.t.url}/console/#/t/${w.a}`);
  const summary = page.locator('#chart-summary');
  await summary.waitFor();
  assert.match(
    await summary.innerText(),
    new RegExp(`${total('succeeded')} succeeded, \\d+ retrying, ${total('failed')} failed`),
  );
  assert.ok((await page.locator('#minute-chart rect.bar.succeeded').count()) >= 1);
  assert.ok((await page.locator('#minute-chart rect.bar.failed').count()) >= 1);
  await shot(page, 'overview-chart');
  await page.goto(`${w.t.url}/console/#/t/${w.b}`);
  await page.locator('#attention').getByRole('link', { name: 'chat-paused' }).waitFor();
  await shot(page, 'overview-attention');
});

test(
  'an endpoint page reveals and rotates secrets, sends a test delivery, edits settings; event types are readable',
  opts,
  async (tc) => {
    const put = await w.t.api('PUT', '/v1/event-types/invoice.paid', {
      body: {
        description: 'An invoice was paid',
        versions: {
          '1': {
            schema: { type: 'object', required: ['amount'], properties: { amount: { type: 'integer' } } },
            example: { amount: 4200 },
          },
        },
      },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    w.answer = 200;
    const { page } = await browser(tc);
    await signIn(page, w.keyA);
    await page.getByRole('heading', { name: 'Acme CRM — overview' }).waitFor();
    await page.goto(`${w.t.url}/console/#/t/${w.a}/endpoints/${w.endpointA}`);
    await page.getByRole('button', { name: 'Reveal secrets' }).click();
    await page.locator('#secret', { hasText: 'whsec_' }).waitFor();
    const before = await page.locator('#secret').innerText();
    await page.getByLabel('Overlap (seconds)').fill('60');
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.locator('#endpoint-status', { hasText: 'Secret rotated' }).waitFor();
    await page.getByRole('button', { name: 'Reveal secrets' }).click();
    await page.locator('#secret', { hasText: 'retires' }).waitFor();
    assert.notEqual(await page.locator('#secret').innerText(), before);
    const received = w.receiver.received.length;
    await page.getByRole('button', { name: 'Send a test delivery' }).click();
    await page.locator('#test-result', { hasText: 'success' }).waitFor();
    assert.ok(w.receiver.received.length > received, 'the w.receiver got the test delivery');
    await page.getByLabel('Description').fill('crm-hooks-edited');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('heading', { name: 'crm-hooks-edited' }).waitFor();
    assert.equal(
      (await w.t.api('GET', `/v1/tenants/${w.a}/endpoints/${w.endpointA}`)).body.description,
      'crm-hooks-edited',
    );
    await page.locator('#breaker-state').waitFor();
    await shot(page, 'endpoint');
    await page.getByRole('link', { name: 'Event types' }).click();
    await page.getByRole('heading', { name: 'Event types' }).waitFor();
    await shot(page, 'event-types');
    await page.getByRole('heading', { name: 'invoice.paid' }).waitFor();
    assert.match(await page.locator('main').innerText(), /"amount": 4200/);
    await shot(page, 'event-types');
    await w.t.api('PATCH', `/v1/tenants/${w.a}/endpoints/${w.endpointA}`, { body: { description: 'crm-hooks' } });
  },
);

test(
  "a failed delivery found by event id shows its reason and the w.receiver's response; Replay makes it succeed",
  opts,
  async (tc) => {
    const delivery = await failedDelivery(w.a, 'evt-browser-1');
    const { page } = await browser(tc);
    await signIn(page, ADMIN_TOKEN);
    await page.locator('#tenants').waitFor();
    await page.goto(`${w.t.url}/console/#/t/${w.a}/deliveries?status=failed`);
    await page.locator('#deliveries').getByRole('link', { name: delivery }).waitFor();
    await shot(page, 'deliveries-failed');
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Event id').fill('evt-browser-1');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/event_id=evt-browser-1/);
    await page.locator('#deliveries').getByRole('link', { name: delivery }).click();
    await page.getByRole('heading', { name: `Delivery ${delivery}` }).waitFor();
    assert.match(await page.locator('#failure-reason').innerText(), /\S/);
    assert.notEqual((await page.locator('#failure-reason').innerText()).trim(), '—');
    assert.match(await page.locator('#attempts').innerText(), /400/);
    assert.match(await page.locator('#attempts pre.response').first().innerText(), /nope/);
    assert.match(await page.locator('#payload').innerText(), /"order": "evt-browser-1"/);
    await shot(page, 'delivery-failed');
    w.answer = 200; // the receiver is fixed
    await page.getByRole('button', { name: 'Replay' }).click();
    await page.locator('#delivery-status .succeeded').waitFor({ timeout: 30_000 });
    await shot(page, 'delivery-replayed');
    const after = await w.t.api('GET', `/v1/tenants/${w.a}/deliveries/${delivery}`);
    assert.equal(after.body.status, 'succeeded');
  },
);

test(
  'a paused endpoint is reactivated and a window replay runs to completion, its progress shown',
  opts,
  async (tc) => {
    const d1 = await failedDelivery(w.a, 'evt-window-1');
    const d2 = await failedDelivery(w.a, 'evt-window-2');
    assert.equal(
      (await w.t.api('PATCH', `/v1/tenants/${w.a}/endpoints/${w.endpointA}`, { body: { status: 'paused' } })).status,
      200,
    );
    const { page } = await browser(tc);
    await signIn(page, ADMIN_TOKEN);
    await page.locator('#tenants').waitFor();
    await page.goto(`${w.t.url}/console/#/t/${w.a}/endpoints`);
    await page.locator('#endpoints').getByRole('link', { name: 'crm-hooks' }).waitFor();
    await shot(page, 'endpoints');
    await page.locator('#endpoints').getByRole('link', { name: 'crm-hooks' }).click();
    await page.locator('#status-badge .paused').waitFor();
    await shot(page, 'endpoint-paused');
    await page.getByRole('button', { name: 'Reactivate' }).click();
    await page.locator('#status-badge .active').waitFor();
    w.answer = 200;
    await page.getByLabel('Since (ISO-8601)').fill('2000-01-01T00:00:00Z');
    await page.getByLabel('Until (ISO-8601)').fill('2100-01-01T00:00:00Z');
    await page.getByRole('button', { name: 'Replay window' }).click();
    await page.locator('#replay-progress', { hasText: 'done' }).waitFor({ timeout: 40_000 });
    await shot(page, 'endpoint-window-replay');
    for (const id of [d1, d2])
      assert.equal((await w.t.api('GET', `/v1/tenants/${w.a}/deliveries/${id}`)).body.status, 'succeeded');
  },
);

test("a tenant API key sees only its tenant; another tenant's delivery answers not found", opts, async (tc) => {
  const foreign = await failedDelivery(w.b, 'evt-foreign-1');
  const { page } = await browser(tc);
  await signIn(page, w.keyA);
  await page.getByRole('heading', { name: 'Acme CRM — overview' }).waitFor();
  assert.equal(await page.getByRole('link', { name: 'Tenants' }).count(), 0);
  // Another tenant's page, and another tenant's delivery under this tenant's path: both not found.
  await page.goto(`${w.t.url}/console/#/t/${w.b}/deliveries/${foreign}`);
  await page.getByRole('heading', { name: 'Not found' }).waitFor();
  await page.goto(`${w.t.url}/console/#/t/${w.a}/deliveries/${foreign}`);
  await page.getByRole('heading', { name: 'Not found' }).waitFor();
  await shot(page, 'not-found');
  const listing = await page.evaluate(async () => (await fetch('/v1/tenants')).status);
  assert.equal(listing, 403, 'the tenant list stays admin-only through the session');
});

test('a portal link signs in once, restricted to its tenant; a second use is refused', opts, async (tc) => {
  const foreign = await failedDelivery(w.a, 'evt-portal-foreign');
  const link = await w.t.api('POST', `/v1/tenants/${w.b}/portal-links`, { token: w.keyA });
  assert.equal(link.status, 404, "another tenant's key cannot make a link");
  const made = await w.t.api('POST', `/v1/tenants/${w.b}/portal-links`);
  assert.equal(made.status, 201);
  const { page, context } = await browser(tc);
  await page.goto(made.body.url);
  await page.getByRole('heading', { name: 'Beta Chat — overview' }).waitFor();
  await shot(page, 'portal-overview');
  await page.goto(`${w.t.url}/console/#/t/${w.b}/deliveries/${foreign}`);
  await page.getByRole('heading', { name: 'Not found' }).waitFor();
  await page.goto(`${w.t.url}/console/#/t/${w.a}`);
  await page.getByRole('heading', { name: 'Not found' }).waitFor();
  await page.goto(`${w.t.url}/console/#/t/${w.b}/endpoints`);
  await page.locator('#endpoints').getByRole('link', { name: 'chat-hooks' }).waitFor();
  // Used once: a second visit (in a new profile, so no session helps) is refused.
  const second = await browser(tc);
  const res = await second.page.goto(made.body.url);
  assert.equal(res?.status(), 400);
  assert.match(await second.page.locator('#refusal').innerText(), /unknown, expired or already used/);
  await shot(second.page, 'portal-reused');
  void context;
  void w.endpointB;
});

test('a state-changing request without the CSRF token is refused; with it, it goes through', opts, async (tc) => {
  const delivery = await failedDelivery(w.a, 'evt-csrf-1');
  const { page } = await browser(tc);
  await signIn(page, ADMIN_TOKEN);
  await page.locator('#tenants').waitFor();
  const path = `/v1/tenants/${w.a}/deliveries/${delivery}/replay`;
  const without = await page.evaluate(async (p) => {
    const r = await fetch(p, { method: 'POST' });
    return { status: r.status, body: await r.json() };
  }, path);
  assert.equal(without.status, 403);
  assert.equal(without.body.error.code, 'csrf_token_invalid');
  const forged = await page.evaluate(
    async (p) => (await fetch(p, { method: 'POST', headers: { 'x-csrf-token': 'forged' } })).status,
    path,
  );
  assert.equal(forged, 403);
  assert.equal(
    (await w.t.api('GET', `/v1/tenants/${w.a}/deliveries/${delivery}`)).body.status,
    'failed',
    'nothing was replayed',
  );
  const withToken = await page.evaluate(async (p) => {
    const s = await (await fetch('/console/session')).json();
    return (await fetch(p, { method: 'POST', headers: { 'x-csrf-token': s.csrf_token } })).status;
  }, path);
  assert.equal(withToken, 202);
});

test("an expired portal link is refused (the server's clock is injected)", opts, async (tc) => {
  const clock = new VirtualClock(Date.now());
  const s = await startTestServer({ clock });
  tc.after(() => s.close());
  const tenant = await s.tenant('Gamma');
  const made = await s.api('POST', `/v1/tenants/${tenant}/portal-links`);
  assert.equal(made.status, 201);
  assert.equal(Date.parse(made.body.expires_at), clock.now() + 15 * 60_000);
  clock.advance(15 * 60_000);
  const { page } = await browser(tc);
  const res = await page.goto(made.body.url);
  assert.equal(res?.status(), 400);
  assert.match(await page.locator('#refusal').innerText(), /unknown, expired or already used/);
  await shot(page, 'portal-expired');
});
