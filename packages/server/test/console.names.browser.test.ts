// The console names things and lets you act (docs/console.md#pages): endpoints by description or URL, the tenant's
// name in the header, tenants and endpoints created from the console, an endpoint's deliveries, disabled buttons that
// say why, "nothing due" in words, the success rate said over what, timeline labels that do not overlap, the ladder
// named with its policy, and favicon.ico served.
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openBrowser, browserTest as opts, shot } from './console-browser.ts';
import { consoleWorld, signIn } from './console-world.ts';
import { ADMIN_TOKEN, until } from './server-harness.ts';

const w = consoleWorld();

async function admin(tc: TestContext): Promise<Page> {
  const { page } = await openBrowser(tc);
  await signIn(w, page, ADMIN_TOKEN);
  await page.locator('#tenants').waitFor();
  return page;
}

test(
  'favicon.ico is served at the root and under /console, and no page asks for a file that is not there',
  opts,
  async (tc) => {
    for (const path of ['/favicon.ico', '/console/favicon.ico']) {
      const res = await fetch(`${w.t.url}${path}`);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('content-type'), 'image/x-icon');
      assert.ok((await res.arrayBuffer()).byteLength > 0);
    }
    const { page } = await openBrowser(tc);
    const missing: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 404) missing.push(r.url());
    });
    await signIn(w, page, ADMIN_TOKEN);
    await page.locator('#tenants').waitFor();
    await page.goto(`${w.t.url}/console/#/t/${w.a}`);
    await page.locator('#minute-chart').waitFor();
    assert.deepEqual(missing, []);
  },
);

test(
  "the tenants list and the overview say 'nothing due' when nothing is due; the header names the tenant",
  opts,
  async (tc) => {
    const page = await admin(tc);
    assert.equal((await w.t.api('GET', '/v1/stats')).body.oldest_due_age_ms, null);
    assert.match(await page.locator('#queue-line').innerText(), /nothing due/);
    assert.doesNotMatch(await page.locator('main').innerText(), /—\s*ago/);
    await page.goto(`${w.t.url}/console/#/t/${w.a}`);
    await page.locator('#oldest-due').waitFor();
    assert.equal(await page.locator('#oldest-due').innerText(), 'nothing due');
    assert.equal(await page.locator('#tenant-name').innerText(), 'Acme CRM');
    assert.match(await page.locator('#who').innerText(), /admin/);
    await shot(page, 'overview-nothing-due');
  },
);

test(
  'an endpoint without a description is named by its URL; a degraded one says what its success rate counts',
  opts,
  async (tc) => {
    // A strict endpoint that only ever succeeds, then is marked degraded by a failure the ladder retries: its ended
    // deliveries all succeeded (100 %), and the page says the rate counts ended deliveries only, over which window.
    w.answer = 200;
    const url = `${w.receiver.url}?unnamed`;
    const ep = (
      await w.t.api('POST', `/v1/tenants/${w.b}/endpoints`, { body: { url, policy: 'standard', event_types: ['x.*'] } })
    ).body.id as string;
    const ok = await w.t.api('POST', `/v1/tenants/${w.b}/events`, {
      body: { event_id: 'evt-rate-1', type: 'x.ok', data: {} },
    });
    await until(
      () => w.t.api('GET', `/v1/tenants/${w.b}/deliveries/${ok.body.deliveries[0].id}`),
      (r) => r.body.status === 'succeeded',
    );
    w.answer = 503;
    await w.t.api('POST', `/v1/tenants/${w.b}/events`, { body: { event_id: 'evt-rate-2', type: 'x.bad', data: {} } });
    await until(
      () => w.t.api('GET', `/v1/tenants/${w.b}/endpoints/${ep}`),
      (r) => r.body.status === 'degraded',
    );
    const page = await admin(tc);
    await page.goto(`${w.t.url}/console/#/t/${w.b}`);
    const row = page.locator('#endpoint-stats tr', { hasText: url });
    await row.waitFor();
    assert.match(await row.innerText(), /degraded/);
    assert.match(await row.innerText(), /100 % of 1/);
    assert.match(await row.innerText(), /failing since/);
    assert.match(await page.locator('#rate-explained').innerText(), /deliveries that ended in the last 1 d/);
    assert.match(await page.locator('#attention').innerText(), new RegExp(`${url.replace(/[?.]/g, '\\$&')} degraded`));
    assert.equal(await page.locator('#attention').getByRole('link', { name: ep }).count(), 0, 'never the bare id');
    await shot(page, 'overview-degraded');
    w.answer = 200;
    await w.t.api('PATCH', `/v1/tenants/${w.b}/endpoints/${ep}`, { body: { status: 'paused' } });
  },
);

test(
  'the admin creates a tenant and the tenant adds an endpoint from the console; its page lists its deliveries',
  opts,
  async (tc) => {
    const page = await admin(tc);
    // A disabled button says why.
    assert.equal(await page.locator('#create-tenant').isDisabled(), true);
    assert.equal(await page.locator('#create-tenant').getAttribute('aria-describedby'), 'create-tenant-reason');
    assert.match(await page.locator('#create-tenant-reason').innerText(), /Give the tenant a name/);
    await page.getByLabel('Name').fill('Delta Shop');
    await page.getByLabel('Environment').selectOption('test');
    await page.getByRole('button', { name: 'Create tenant' }).click();
    await page.getByRole('heading', { name: 'Delta Shop — overview' }).waitFor();
    assert.equal(await page.locator('#tenant-name').innerText(), 'Delta Shop');
    const tenant = decodeURIComponent(page.url().split('#/t/')[1]);
    const made = (await w.t.api('GET', `/v1/tenants/${tenant}`)).body;
    assert.equal(made.name, 'Delta Shop');
    assert.equal(made.environment, 'test');
    await page.locator('#nav').getByRole('link', { name: 'Endpoints' }).click();
    await page.locator('#new-url').waitFor();
    assert.equal(await page.locator('#create-endpoint').isDisabled(), true);
    assert.match(await page.locator('#create-endpoint-reason').innerText(), /Give the endpoint a URL/);
    await shot(page, 'endpoints-create');
    await page.getByLabel('URL').fill(w.receiver.url);
    await page.getByLabel('Description').fill('shop-hooks');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('heading', { name: 'shop-hooks' }).waitFor();
    const ep = decodeURIComponent(page.url().split('/endpoints/')[1]);
    assert.equal((await w.t.api('GET', `/v1/tenants/${tenant}/endpoints/${ep}`)).body.url, w.receiver.url);
    // Disabled with the reason: the endpoint is active, so Reactivate says so; the closed breaker has nothing to reset.
    assert.equal(await page.locator('#reactivate').isDisabled(), true);
    assert.match(await page.locator('#reactivate-reason').innerText(), /already active/);
    assert.match(await page.locator('#breaker-reset-reason').innerText(), /closed/);
    // Its deliveries.
    w.answer = 200;
    const ev = await w.t.api('POST', `/v1/tenants/${tenant}/events`, {
      body: { event_id: 'evt-shop-1', type: 'order.created', data: {} },
    });
    const id = ev.body.deliveries[0].id as string;
    await until(
      () => w.t.api('GET', `/v1/tenants/${tenant}/deliveries/${id}`),
      (r) => r.body.status === 'succeeded',
    );
    await page.reload();
    const link = page.locator('#endpoint-delivery-list').getByRole('link', { name: id });
    await link.waitFor();
    assert.match(await page.locator('#endpoint-delivery-list tbody tr').first().innerText(), /succeeded/);
    await shot(page, 'endpoint-with-deliveries');
    await link.click();
    await page.locator('#delivery-endpoint').waitFor();
    assert.equal(await page.locator('#delivery-endpoint').innerText(), 'shop-hooks');
    // The ladder named with the endpoint's policy (standard by default), not a bare "fast".
    assert.match(await page.locator('#delivery-ladder').innerText(), /the standard policy's fast ladder \(/);
    assert.equal(await page.locator('#replay').isDisabled(), true);
    assert.match(await page.locator('#replay-reason').innerText(), /succeeded; only failed or skipped/);
  },
);

test('attempts seconds apart on a long timeline get labels that do not overlap', opts, async (tc) => {
  // Three attempts within a second (Retry now twice after the first failure), then the next one scheduled later on
  // the standard ladder: drawn to scale, the three marks sit a few pixels apart.
  w.answer = 503;
  const ep = (
    await w.t.api('POST', `/v1/tenants/${w.a}/endpoints`, {
      body: { url: w.receiver.url, policy: 'standard', description: 'close-attempts', event_types: ['close.*'] },
    })
  ).body.id as string;
  tc.after(() => w.t.api('PATCH', `/v1/tenants/${w.a}/endpoints/${ep}`, { body: { status: 'paused' } }));
  const ev = await w.t.api('POST', `/v1/tenants/${w.a}/events`, {
    body: { event_id: 'evt-close-1', type: 'close.x', data: {} },
  });
  const id = ev.body.deliveries[0].id as string;
  const path = `/v1/tenants/${w.a}/deliveries/${id}`;
  for (let n = 1; n <= 3; n++) {
    if (n > 1) assert.equal((await w.t.api('POST', `${path}/retry`)).status, 200);
    await until(
      () => w.t.api('GET', path),
      (r) => r.body.attempt_count === n && r.body.status === 'pending',
    );
  }
  const page = await admin(tc);
  await page.goto(`${w.t.url}/console/#/t/${w.a}/deliveries/${id}`);
  await page.locator('#delivery-timeline .mark.next').waitFor();
  const boxes = await page
    .locator('#delivery-timeline text.mark-label, #delivery-timeline text.mark-sub')
    .evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { text: e.textContent ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      }),
    );
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const p = boxes[i];
      const q = boxes[j];
      const apart = p.right <= q.left || q.right <= p.left || p.bottom <= q.top || q.bottom <= p.top;
      assert.ok(apart, `"${p.text}" and "${q.text}" overlap`);
    }
  assert.ok(
    boxes.some((b) => /^#1–#3$/.test(b.text)),
    `one label for the close attempts: ${boxes.map((b) => b.text)}`,
  );
  await shot(page, 'delivery-close-attempts');
});
