// The console in a real browser: `hookline serve`'s app on a temporary SQLite file, a loopback receiver whose answers
// the test switches, and Debian's Chromium driven by playwright-core (docs/console.md). Every page visited is
// screenshotted into .cache/console-screenshots/ (not committed).
import assert from 'node:assert/strict';
import { after, before, type TestContext, test } from 'node:test';
import { VirtualClock } from '@hookline/core';
import type { BrowserContext, Page } from 'playwright-core';
import { chromiumMissing as missing, openBrowser, browserTest as opts, shot } from './console-browser.ts';
import { ADMIN_TOKEN, startReceiver, startTestServer, type TestServer, until } from './server-harness.ts';

let t: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let answer = 503;
let a = '';
let b = '';
let keyA = '';
let endpointA = '';
let endpointB = '';

before(async () => {
  if (missing) return;
  t = await startTestServer();
  receiver = await startReceiver(() => answer);
  a = await t.tenant('Acme CRM');
  b = await t.tenant('Beta Chat');
  keyA = (await t.api('POST', `/v1/tenants/${a}/api-keys`, { body: { name: 'console' } })).body.key;
  endpointA = (
    await t.api('POST', `/v1/tenants/${a}/endpoints`, {
      body: { url: receiver.url, policy: 'strict', description: 'crm-hooks' },
    })
  ).body.id;
  endpointB = (
    await t.api('POST', `/v1/tenants/${b}/endpoints`, {
      body: { url: receiver.url, policy: 'strict', description: 'chat-hooks' },
    })
  ).body.id;
});

after(async () => {
  await t?.close();
  await receiver?.close();
});

/** A fresh browser profile, closed (and deleted) when the test ends. */
function browser(tc: TestContext): Promise<{ page: Page; context: BrowserContext }> {
  return openBrowser(tc);
}

async function signIn(page: Page, token: string): Promise<void> {
  await page.goto(`${t.url}/console/`);
  await page.getByLabel('Admin token or tenant API key').fill(token);
  await shot(page, 'sign-in');
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A delivery that failed for good at the receiver (strict policy, 4xx/5xx → failed at once). */
async function failedDelivery(tenant: string, eventId: string): Promise<string> {
  answer = 400;
  const ev = await t.api('POST', `/v1/tenants/${tenant}/events`, {
    body: { event_id: eventId, type: 'order.created', data: { order: eventId } },
  });
  const id = ev.body.deliveries[0].id as string;
  await until(
    () => t.api('GET', `/v1/tenants/${tenant}/deliveries/${id}`),
    (r) => r.body.status === 'failed',
  );
  return id;
}

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
    const [cookie] = (await context.cookies(t.url)).filter((c) => c.name === 'hl_console');
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
  await failedDelivery(a, 'evt-chart-1');
  answer = 200;
  const ok = await t.api('POST', `/v1/tenants/${a}/events`, {
    body: { event_id: 'evt-chart-2', type: 'order.created', data: {} },
  });
  await until(
    () => t.api('GET', `/v1/tenants/${a}/deliveries/${ok.body.deliveries[0].id}`),
    (r) => r.body.status === 'succeeded',
  );
  const minutes = (await t.api('GET', `/v1/tenants/${a}/stats/minutes`)).body;
  const total = (k: 'succeeded' | 'failed') =>
    minutes.minutes.reduce((n: number, m: Record<string, number>) => n + m[k], 0);
  assert.ok(total('succeeded') >= 1 && total('failed') >= 1);
  const paused = (
    await t.api('POST', `/v1/tenants/${b}/endpoints`, { body: { url: receiver.url, description: 'chat-paused' } })
  ).body.id;
  await t.api('PATCH', `/v1/tenants/${b}/endpoints/${paused}`, { body: { status: 'paused' } });
  const { page } = await browser(tc);
  await signIn(page, ADMIN_TOKEN);
  await page.locator('#tenants').waitFor();
  await page.goto(`${t.url}/console/#/t/${a}`);
  const summary = page.locator('#chart-summary');
  await summary.waitFor();
  assert.match(
    await summary.innerText(),
    new RegExp(`${total('succeeded')} succeeded, \\d+ retrying, ${total('failed')} failed`),
  );
  assert.ok((await page.locator('#minute-chart rect.bar.succeeded').count()) >= 1);
  assert.ok((await page.locator('#minute-chart rect.bar.failed').count()) >= 1);
  await shot(page, 'overview-chart');
  await page.goto(`${t.url}/console/#/t/${b}`);
  await page.locator('#attention').getByRole('link', { name: 'chat-paused' }).waitFor();
  await shot(page, 'overview-attention');
});

test(
  'an endpoint page reveals and rotates secrets, sends a test delivery, edits settings; event types are readable',
  opts,
  async (tc) => {
    const put = await t.api('PUT', '/v1/event-types/invoice.paid', {
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
    answer = 200;
    const { page } = await browser(tc);
    await signIn(page, keyA);
    await page.getByRole('heading', { name: 'Acme CRM — overview' }).waitFor();
    await page.goto(`${t.url}/console/#/t/${a}/endpoints/${endpointA}`);
    await page.getByRole('button', { name: 'Reveal secrets' }).click();
    await page.locator('#secret', { hasText: 'whsec_' }).waitFor();
    const before = await page.locator('#secret').innerText();
    await page.getByLabel('Overlap (seconds)').fill('60');
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.locator('#endpoint-status', { hasText: 'Secret rotated' }).waitFor();
    await page.getByRole('button', { name: 'Reveal secrets' }).click();
    await page.locator('#secret', { hasText: 'retires' }).waitFor();
    assert.notEqual(await page.locator('#secret').innerText(), before);
    const received = receiver.received.length;
    await page.getByRole('button', { name: 'Send a test delivery' }).click();
    await page.locator('#test-result', { hasText: 'success' }).waitFor();
    assert.ok(receiver.received.length > received, 'the receiver got the test delivery');
    await page.getByLabel('Description').fill('crm-hooks-edited');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('heading', { name: 'crm-hooks-edited' }).waitFor();
    assert.equal((await t.api('GET', `/v1/tenants/${a}/endpoints/${endpointA}`)).body.description, 'crm-hooks-edited');
    await page.locator('#breaker-state').waitFor();
    await shot(page, 'endpoint');
    await page.getByRole('link', { name: 'Event types' }).click();
    await page.getByRole('heading', { name: 'Event types' }).waitFor();
    await shot(page, 'event-types');
    await page.getByRole('heading', { name: 'invoice.paid' }).waitFor();
    assert.match(await page.locator('main').innerText(), /"amount": 4200/);
    await shot(page, 'event-types');
    await t.api('PATCH', `/v1/tenants/${a}/endpoints/${endpointA}`, { body: { description: 'crm-hooks' } });
  },
);

test(
  "a failed delivery found by event id shows its reason and the receiver's response; Replay makes it succeed",
  opts,
  async (tc) => {
    const delivery = await failedDelivery(a, 'evt-browser-1');
    const { page } = await browser(tc);
    await signIn(page, ADMIN_TOKEN);
    await page.locator('#tenants').waitFor();
    await page.goto(`${t.url}/console/#/t/${a}/deliveries?status=failed`);
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
    answer = 200; // the receiver is fixed
    await page.getByRole('button', { name: 'Replay' }).click();
    await page.locator('#delivery-status .succeeded').waitFor({ timeout: 30_000 });
    await shot(page, 'delivery-replayed');
    const after = await t.api('GET', `/v1/tenants/${a}/deliveries/${delivery}`);
    assert.equal(after.body.status, 'succeeded');
  },
);

test(
  'a paused endpoint is reactivated and a window replay runs to completion, its progress shown',
  opts,
  async (tc) => {
    const d1 = await failedDelivery(a, 'evt-window-1');
    const d2 = await failedDelivery(a, 'evt-window-2');
    assert.equal(
      (await t.api('PATCH', `/v1/tenants/${a}/endpoints/${endpointA}`, { body: { status: 'paused' } })).status,
      200,
    );
    const { page } = await browser(tc);
    await signIn(page, ADMIN_TOKEN);
    await page.locator('#tenants').waitFor();
    await page.goto(`${t.url}/console/#/t/${a}/endpoints`);
    await page.locator('#endpoints').getByRole('link', { name: 'crm-hooks' }).waitFor();
    await shot(page, 'endpoints');
    await page.locator('#endpoints').getByRole('link', { name: 'crm-hooks' }).click();
    await page.locator('#status-badge .paused').waitFor();
    await shot(page, 'endpoint-paused');
    await page.getByRole('button', { name: 'Reactivate' }).click();
    await page.locator('#status-badge .active').waitFor();
    answer = 200;
    await page.getByLabel('Since (ISO-8601)').fill('2000-01-01T00:00:00Z');
    await page.getByLabel('Until (ISO-8601)').fill('2100-01-01T00:00:00Z');
    await page.getByRole('button', { name: 'Replay window' }).click();
    await page.locator('#replay-progress', { hasText: 'done' }).waitFor({ timeout: 40_000 });
    await shot(page, 'endpoint-window-replay');
    for (const id of [d1, d2])
      assert.equal((await t.api('GET', `/v1/tenants/${a}/deliveries/${id}`)).body.status, 'succeeded');
  },
);

test("a tenant API key sees only its tenant; another tenant's delivery answers not found", opts, async (tc) => {
  const foreign = await failedDelivery(b, 'evt-foreign-1');
  const { page } = await browser(tc);
  await signIn(page, keyA);
  await page.getByRole('heading', { name: 'Acme CRM — overview' }).waitFor();
  assert.equal(await page.getByRole('link', { name: 'Tenants' }).count(), 0);
  // Another tenant's page, and another tenant's delivery under this tenant's path: both not found.
  await page.goto(`${t.url}/console/#/t/${b}/deliveries/${foreign}`);
  await page.getByRole('heading', { name: 'Not found' }).waitFor();
  await page.goto(`${t.url}/console/#/t/${a}/deliveries/${foreign}`);
  await page.getByRole('heading', { name: 'Not found' }).waitFor();
  await shot(page, 'not-found');
  const listing = await page.evaluate(async () => (await fetch('/v1/tenants')).status);
  assert.equal(listing, 403, 'the tenant list stays admin-only through the session');
});

test('a portal link signs in once, restricted to its tenant; a second use is refused', opts, async (tc) => {
  const foreign = await failedDelivery(a, 'evt-portal-foreign');
  const link = await t.api('POST', `/v1/tenants/${b}/portal-links`, { token: keyA });
  assert.equal(link.status, 404, "another tenant's key cannot make a link");
  const made = await t.api('POST', `/v1/tenants/${b}/portal-links`);
  assert.equal(made.status, 201);
  const { page, context } = await browser(tc);
  await page.goto(made.body.url);
  await page.getByRole('heading', { name: 'Beta Chat — overview' }).waitFor();
  await shot(page, 'portal-overview');
  await page.goto(`${t.url}/console/#/t/${b}/deliveries/${foreign}`);
  await page.getByRole('heading', { name: 'Not found' }).waitFor();
  await page.goto(`${t.url}/console/#/t/${a}`);
  await page.getByRole('heading', { name: 'Not found' }).waitFor();
  await page.goto(`${t.url}/console/#/t/${b}/endpoints`);
  await page.locator('#endpoints').getByRole('link', { name: 'chat-hooks' }).waitFor();
  // Used once: a second visit (in a new profile, so no session helps) is refused.
  const second = await browser(tc);
  const res = await second.page.goto(made.body.url);
  assert.equal(res?.status(), 400);
  assert.match(await second.page.locator('#refusal').innerText(), /unknown, expired or already used/);
  await shot(second.page, 'portal-reused');
  void context;
  void endpointB;
});

test('a state-changing request without the CSRF token is refused; with it, it goes through', opts, async (tc) => {
  const delivery = await failedDelivery(a, 'evt-csrf-1');
  const { page } = await browser(tc);
  await signIn(page, ADMIN_TOKEN);
  await page.locator('#tenants').waitFor();
  const path = `/v1/tenants/${a}/deliveries/${delivery}/replay`;
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
    (await t.api('GET', `/v1/tenants/${a}/deliveries/${delivery}`)).body.status,
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

test(
  "the policy preview draws the engine's simulated timeline to scale; a bad script is refused with its reason",
  opts,
  async (tc) => {
    const { page } = await browser(tc);
    await signIn(page, keyA);
    await page.getByRole('heading', { name: 'Acme CRM — overview' }).waitFor();
    await page.getByRole('link', { name: 'Policy preview' }).click();
    await page.getByRole('heading', { name: 'Policy preview' }).waitFor();
    await page.getByLabel('Policy', { exact: true }).selectOption('brief');
    await page.getByLabel('Response script').fill('500,500,200');
    await page.getByRole('button', { name: 'Simulate' }).click();
    await page.locator('#sim-timeline').waitFor();
    assert.match(await page.locator('#sim-status').innerText(), /succeeded at \+5 min 30 s after 3 attempts/);
    const rows = await page.locator('#sim-attempts tbody tr').allInnerTexts();
    assert.equal(rows.length, 3);
    assert.match(rows[0], /1\s+\+0 ms\s+fast\s+500\s+delivery_failure\s+retry at \+30 s \(fast\)/);
    // To scale: brief retries at +30 s and +5 min 30 s, so the third mark is 11 times as far from the first as the second.
    const xs = await page
      .locator('#sim-timeline .mark rect')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('x'))));
    assert.equal(xs.length, 3);
    assert.ok(Math.abs((xs[2] - xs[0]) / (xs[1] - xs[0]) - 11) < 0.01, `marks at ${xs.join(', ')}`);
    await shot(page, 'policy-preview');
    await page.getByLabel('Response script').fill('500,teapot');
    await page.getByRole('button', { name: 'Simulate' }).click();
    await page.locator('#sim-status.error', { hasText: 'responses/1' }).waitFor();
    assert.equal(await page.locator('#sim-timeline').count(), 0);
  },
);

test("an endpoint's policy and cap are edited from its page", opts, async (tc) => {
  tc.after(() =>
    t.api('PATCH', `/v1/tenants/${a}/endpoints/${endpointA}`, { body: { policy: 'strict', max_concurrency: null } }),
  );
  const { page } = await browser(tc);
  await signIn(page, ADMIN_TOKEN);
  await page.locator('#tenants').waitFor();
  await page.goto(`${t.url}/console/#/t/${a}/endpoints/${endpointA}`);
  await page.locator('#policy-value', { hasText: 'strict' }).waitFor();
  await page.getByLabel('Policy').selectOption('brief');
  await page.getByLabel('Cap (concurrent attempts)').fill('3');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.locator('#endpoint-status', { hasText: 'Settings saved' }).waitFor();
  await page.locator('#policy-value', { hasText: 'brief' }).waitFor();
  assert.match(await page.locator('#cap-value').innerText(), /^3 /);
  const saved = (await t.api('GET', `/v1/tenants/${a}/endpoints/${endpointA}`)).body;
  assert.deepEqual([saved.policy, saved.max_concurrency], ['brief', 3]);
  // A cap out of range (1-1000) is not sent: the field says what is wrong; nothing changes.
  await page.getByLabel('Cap (concurrent attempts)').fill('0');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.locator('#edit-cap:invalid').waitFor();
  assert.equal((await t.api('GET', `/v1/tenants/${a}/endpoints/${endpointA}`)).body.max_concurrency, 3);
  // A policy the server does not know (edited in the page's DOM) is refused by the API, its reason shown.
  await page.getByLabel('Cap (concurrent attempts)').fill('');
  await page.locator('#edit-policy').evaluate((s: HTMLSelectElement) => {
    s.options[0].value = 'nope';
  });
  await page.getByLabel('Policy').selectOption('nope');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.locator('#endpoint-status.error', { hasText: 'unknown policy nope' }).waitFor();
  assert.equal((await t.api('GET', `/v1/tenants/${a}/endpoints/${endpointA}`)).body.policy, 'brief');
  await shot(page, 'endpoint-settings');
});

test('the deliveries page filters by endpoint, event type, time range and event id, and pages', opts, async (tc) => {
  answer = 200;
  const other = (
    await t.api('POST', `/v1/tenants/${a}/endpoints`, {
      body: { url: receiver.url, policy: 'strict', description: 'crm-other', event_types: ['invoice.*'] },
    })
  ).body.id;
  tc.after(() => t.api('DELETE', `/v1/tenants/${a}/endpoints/${other}`));
  const ids: string[] = [];
  for (const [n, type] of [
    [1, 'invoice.sent'],
    [2, 'invoice.sent'],
    [3, 'invoice.voided'],
  ] as const) {
    const ev = await t.api('POST', `/v1/tenants/${a}/events`, {
      body: { event_id: `evt-filter-${n}`, type, data: {} },
    });
    ids.push(
      ...ev.body.deliveries
        .filter((d: { endpoint_id: string }) => d.endpoint_id === other)
        .map((d: { id: string }) => d.id),
    );
  }
  assert.equal(ids.length, 3);
  const { page } = await browser(tc);
  await signIn(page, ADMIN_TOKEN);
  await page.locator('#tenants').waitFor();
  await page.goto(`${t.url}/console/#/t/${a}/deliveries?limit=2`);
  await page.locator('#deliveries tbody tr').first().waitFor();
  await page.getByLabel('Endpoint').selectOption(other);
  await page.getByLabel('Event type').fill('invoice.sent');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/endpoint_id=.*event_type=invoice\.sent/);
  await page.locator('#deliveries-count', { hasText: '2 deliveries' }).waitFor();
  const shown = await page.locator('#deliveries tbody tr td:first-child').allInnerTexts();
  assert.deepEqual(shown, [ids[1], ids[0]], 'newest first, only that endpoint and type');
  await shot(page, 'deliveries-filtered');
  // A time range that ends before these deliveries were created shows none of them.
  await page.getByLabel('Event type').fill('');
  await page.getByLabel('Created until').fill('2020-01-01T00:00');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/until=2020-01-01/);
  await page.locator('#deliveries-count', { hasText: 'No deliveries match' }).waitFor();
  await page.getByLabel('Created until').fill('');
  await page.getByLabel('Created since').fill('2020-01-01T00:00');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL((u) => /since=2020-01-01/.test(u.hash) && !/until=/.test(u.hash));
  // Two rows per page (?limit=2): the third delivery is on the next page.
  await page.locator('#deliveries-count', { hasText: '2 deliveries; more on the next page' }).waitFor();
  await page.getByRole('link', { name: 'Next page' }).click();
  await page.locator('#deliveries tbody tr td:first-child', { hasText: ids[0] }).waitFor();
  assert.equal(await page.locator('#deliveries tbody tr').count(), 1);
  // The event id search finds the one delivery of that event on that endpoint.
  await page.getByLabel('Event id').fill('evt-filter-3');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.locator('#deliveries tbody tr td:first-child', { hasText: ids[2] }).waitFor();
  assert.equal(await page.locator('#deliveries tbody tr').count(), 1);
});

test(
  "a held delivery's timeline shows its attempts to scale and the held period until the breaker's probe; once it succeeded, the past held period and each attempt's ladder",
  opts,
  async (tc) => {
    let downAnswer = 503;
    const down = await startReceiver(() => downAnswer);
    tc.after(() => down.close());
    const c = await t.tenant('Gamma Pay');
    const ep = (
      await t.api('POST', `/v1/tenants/${c}/endpoints`, {
        body: { url: down.url, policy: 'payments', description: 'pay-hooks' },
      })
    ).body.id;
    const sent = [];
    for (let i = 1; i <= 6; i++)
      sent.push(
        (
          await t.api('POST', `/v1/tenants/${c}/events`, {
            body: { event_id: `evt-held-${i}`, type: 'order.created', data: { i } },
          })
        ).body.deliveries[0].id as string,
      );
    // Five failed deliveries open the tenant breaker (payments); the retries that come due are held, no attempt spent.
    const held = await until(
      () => t.api('GET', `/v1/tenants/${c}/deliveries?status=held`),
      (r) => r.body.items?.length > 0,
      { timeoutMs: 60_000 },
    );
    const id = held.body.items[0].id as string;
    assert.ok(sent.includes(id));
    const { page } = await browser(tc);
    await signIn(page, ADMIN_TOKEN);
    await page.locator('#tenants').waitFor();
    await page.goto(`${t.url}/console/#/t/${c}/deliveries/${id}`);
    await page.locator('#delivery-timeline').waitFor();
    await page.locator('#delivery-status .held').waitFor();
    assert.ok((await page.locator('#delivery-timeline .mark.delivery_failure').count()) >= 1, 'the failed attempts');
    assert.equal(await page.locator('#delivery-timeline rect.band.held').count(), 1);
    // The current held band begins when the hold began (held_since), after the wait for the retry that was held.
    const detail = await t.api('GET', `/v1/tenants/${c}/deliveries/${id}`);
    assert.ok(detail.body.held_since, 'a held delivery says since when');
    await page
      .locator('#delivery-timeline rect.band.wait title', { hasText: 'until the breaker held it' })
      .waitFor({ state: 'attached' });
    assert.match(
      await page.locator('#delivery-timeline .timeline-list').innerText(),
      /held: the breaker is open; next attempt on the fast ladder/,
    );
    assert.match(await page.locator('#delivery-timeline').innerText(), /next/);
    // The held band reaches the next attempt's mark, drawn where next_attempt_at falls.
    const band = await page
      .locator('#delivery-timeline rect.band.held')
      .evaluate((e) => Number(e.getAttribute('x')) + Number(e.getAttribute('width')));
    const next = await page
      .locator('#delivery-timeline .mark.next rect')
      .evaluate((e) => Number(e.getAttribute('x')) + 2);
    assert.ok(Math.abs(band - next) < 1.5, `band ends at ${band}, next mark at ${next}`);
    await shot(page, 'delivery-held-timeline');
    const heldAttempts = await page.locator('#delivery-timeline .mark.delivery_failure').count();

    // The receiver is back and the breaker is reset: the held delivery succeeds, and its page still draws the period
    // it was held (a band ending where the breaker closed, before its last attempt) and the ladder of every attempt.
    downAnswer = 200;
    await t.api('POST', `/v1/tenants/${c}/breaker/reset`);
    const done = await until(
      () => t.api('GET', `/v1/tenants/${c}/deliveries/${id}`),
      (r) => r.body.status === 'succeeded',
      { timeoutMs: 30_000 },
    );
    const last = done.body.attempts.at(-1);
    assert.ok(last.held_from && last.held_until, 'the last attempt records the held period');
    await page.reload();
    await page.locator('#delivery-status .succeeded').waitFor();
    assert.equal(await page.locator('#delivery-timeline .mark.success').count(), 1);
    assert.equal(await page.locator('#delivery-timeline .mark.delivery_failure').count(), heldAttempts);
    assert.equal(await page.locator('#delivery-timeline .mark.next').count(), 0);
    assert.equal(await page.locator('#delivery-timeline rect.band.held').count(), 1, 'the past held period');
    assert.match(
      await page.locator('#delivery-timeline .timeline-list').innerText(),
      /held from .+ until .+: the breaker was open/,
    );
    // Every attempt was scheduled on the fast ladder (payments; this event is not a money event): drawn under each mark.
    assert.deepEqual(
      await page.locator('#delivery-timeline .mark .mark-sub').evaluateAll((es) => es.map((e) => e.textContent)),
      Array(done.body.attempts.length).fill('fast'),
    );
    assert.deepEqual(
      await page.locator('#attempts tbody td:nth-child(3)').allInnerTexts(),
      Array(done.body.attempts.length).fill('fast'),
    );
    // To scale: the band starts after the failed attempts and ends at or before the successful one.
    const [heldX, heldEnd] = await page
      .locator('#delivery-timeline rect.band.held')
      .evaluate((e) => [Number(e.getAttribute('x')), Number(e.getAttribute('x')) + Number(e.getAttribute('width'))]);
    const failedEnd = Math.max(
      ...(await page
        .locator('#delivery-timeline .mark.delivery_failure rect')
        .evaluateAll((es) => es.map((e) => Number(e.getAttribute('x')) + 2))),
    );
    const successX = await page
      .locator('#delivery-timeline .mark.success rect')
      .evaluate((e) => Number(e.getAttribute('x')) + 2);
    assert.ok(heldX >= failedEnd - 1.5, `the band starts at ${heldX}, after the last failure at ${failedEnd}`);
    assert.ok(heldEnd <= successX + 1.5, `the band ends at ${heldEnd}, by the success at ${successX}`);
    await shot(page, 'delivery-held-then-succeeded-timeline');
    await t.api('PATCH', `/v1/tenants/${c}/endpoints/${ep}`, { body: { status: 'paused' } });
  },
);

/** Every control on the page has an accessible name; nothing is wider than the viewport. */
async function checkPage(page: Page, name: string): Promise<void> {
  const problems = await page.evaluate(() => {
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('input, select, textarea, button'))) {
      const labelled =
        (el as HTMLInputElement).labels?.length ||
        el.getAttribute('aria-label') ||
        el.getAttribute('aria-labelledby') ||
        (el.tagName === 'BUTTON' && el.textContent?.trim());
      if (!labelled) out.push(`unlabelled ${el.tagName.toLowerCase()}#${el.id}`);
    }
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width)
      out.push(`page is ${document.documentElement.scrollWidth}px wide in a ${width}px viewport`);
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('main *'))) {
      const r = el.getBoundingClientRect();
      if (r.right > width + 1 && !el.closest('.table-wrap, pre')) {
        out.push(
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} reaches ${Math.round(r.right)}px`,
        );
        break;
      }
    }
    return out;
  });
  assert.deepEqual(problems, [], name);
}

test('on a phone (390×844) every page fits the width, and every control is labelled', opts, async (tc) => {
  const delivery = await failedDelivery(a, 'evt-phone-1');
  const { page } = await browser(tc);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${t.url}/console/`);
  await page.getByLabel('Admin token or tenant API key').waitFor();
  await checkPage(page, 'sign-in');
  await shot(page, 'phone-sign-in');
  await page.getByLabel('Admin token or tenant API key').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#tenants').waitFor();
  await checkPage(page, 'tenants');
  await shot(page, 'phone-tenants');
  const pages: Array<[string, string, string]> = [
    ['overview', `#/t/${a}`, '#minute-chart'],
    ['deliveries', `#/t/${a}/deliveries`, '#deliveries'],
    ['delivery', `#/t/${a}/deliveries/${delivery}`, '#delivery-timeline'],
    ['endpoints', `#/t/${a}/endpoints`, '#endpoints'],
    ['endpoint', `#/t/${a}/endpoints/${endpointA}`, '#breaker-state'],
    ['event-types', `#/t/${a}/event-types`, 'main h1'],
    ['policy-preview', `#/t/${a}/policy-preview`, '#sim-responses'],
  ];
  for (const [name, hash, ready] of pages) {
    await page.goto(`${t.url}/console/${hash}`);
    await page.locator(ready).first().waitFor();
    if (name === 'policy-preview') {
      await page.getByLabel('Policy', { exact: true }).selectOption('payments');
      await page.getByLabel('Response script').fill('500,500,404,timeout,200');
      await page.getByRole('button', { name: 'Simulate' }).click();
      await page.locator('#sim-timeline').waitFor();
    }
    await checkPage(page, name);
    await shot(page, `phone-${name}`);
  }
});

test(
  'the keyboard reaches every control with a visible focus ring: sign in and filter without a mouse',
  opts,
  async (tc) => {
    const { page } = await browser(tc);
    await page.goto(`${t.url}/console/`);
    await page.getByLabel('Admin token or tenant API key').waitFor();
    // Focus starts in the page's content: the first Tab reaches the token field; the skip link is just before it.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'token');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    await page.keyboard.press('Tab');
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    assert.notEqual(ring, 'none', 'the focused field shows its focus');
    await page.keyboard.type(ADMIN_TOKEN);
    await page.keyboard.press('Enter');
    await page.locator('#tenants').waitFor();
    await page.goto(`${t.url}/console/#/t/${a}/deliveries`);
    await page.locator('#deliveries').waitFor();
    await page.locator('#status').focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'endpoint_id');
    for (const id of ['event_type', 'event_id', 'since', 'until']) {
      // datetime-local fields hold several focusable parts; tab until the next control.
      for (let i = 0; i < 12 && (await page.evaluate(() => document.activeElement?.id)) !== id; i++)
        await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.id), id);
    }
    const button = page.getByRole('button', { name: 'Filter' });
    await button.focus();
    assert.notEqual(
      await button.evaluate((b) => getComputedStyle(b).outlineStyle),
      'none',
      'the focused button shows its focus',
    );
    await shot(page, 'keyboard-focus');
  },
);
