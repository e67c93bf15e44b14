// The console in a real browser, its other pages (docs/console.md): the policy preview, editing an endpoint's policy
// and cap, the deliveries page's filters and pages, a held delivery's timeline, a phone's width and every control
// labelled, and the keyboard alone. Every page visited is screenshotted into .cache/console-screenshots/.
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { openBrowser, browserTest as opts, shot } from './console-browser.ts';
import { consoleWorld, failedDelivery as failed, signIn as signInAs } from './console-world.ts';
import { ADMIN_TOKEN, startReceiver, until } from './server-harness.ts';

const w = consoleWorld();

/** A fresh browser profile, closed (and deleted) when the test ends. */
function browser(tc: TestContext): Promise<{ page: Page; context: BrowserContext }> {
  return openBrowser(tc);
}
const signIn = (page: Page, token: string) => signInAs(w, page, token);
const failedDelivery = (tenant: string, eventId: string) => failed(w, tenant, eventId);

test(
  "the policy preview draws the engine's simulated timeline to scale; a bad script is refused with its reason",
  opts,
  async (tc) => {
    const { page } = await browser(tc);
    await signIn(page, w.keyA);
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
    w.t.api('PATCH', `/v1/tenants/${w.a}/endpoints/${w.endpointA}`, {
      body: { policy: 'strict', max_concurrency: null },
    }),
  );
  const { page } = await browser(tc);
  await signIn(page, ADMIN_TOKEN);
  await page.locator('#tenants').waitFor();
  await page.goto(`${w.t.url}/console/#/t/${w.a}/endpoints/${w.endpointA}`);
  await page.locator('#policy-value', { hasText: 'strict' }).waitFor();
  await page.getByLabel('Policy').selectOption('brief');
  await page.getByLabel('Cap (concurrent attempts)').fill('3');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.locator('#endpoint-status', { hasText: 'Settings saved' }).waitFor();
  await page.locator('#policy-value', { hasText: 'brief' }).waitFor();
  assert.match(await page.locator('#cap-value').innerText(), /^3 /);
  const saved = (await w.t.api('GET', `/v1/tenants/${w.a}/endpoints/${w.endpointA}`)).body;
  assert.deepEqual([saved.policy, saved.max_concurrency], ['brief', 3]);
  // A cap out of range (1-1000) is not sent: the field says what is wrong; nothing changes.
  await page.getByLabel('Cap (concurrent attempts)').fill('0');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.locator('#edit-cap:invalid').waitFor();
  assert.equal((await w.t.api('GET', `/v1/tenants/${w.a}/endpoints/${w.endpointA}`)).body.max_concurrency, 3);
  // A policy the server does not know (edited in the page's DOM) is refused by the API, its reason shown.
  await page.getByLabel('Cap (concurrent attempts)').fill('');
  await page.locator('#edit-policy').evaluate((s: HTMLSelectElement) => {
    s.options[0].value = 'nope';
  });
  await page.getByLabel('Policy').selectOption('nope');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.locator('#endpoint-status.error', { hasText: 'unknown policy nope' }).waitFor();
  assert.equal((await w.t.api('GET', `/v1/tenants/${w.a}/endpoints/${w.endpointA}`)).body.policy, 'brief');
  await shot(page, 'endpoint-settings');
});

test('the deliveries page filters by endpoint, event type, time range and event id, and pages', opts, async (tc) => {
  w.answer = 200;
  const other = (
    await w.t.api('POST', `/v1/tenants/${w.a}/endpoints`, {
      body: { url: w.receiver.url, policy: 'strict', description: 'crm-other', event_types: ['invoice.*'] },
    })
  ).body.id;
  tc.after(() => w.t.api('DELETE', `/v1/tenants/${w.a}/endpoints/${other}`));
  const ids: string[] = [];
  for (const [n, type] of [
    [1, 'invoice.sent'],
    [2, 'invoice.sent'],
    [3, 'invoice.voided'],
  ] as const) {
    const ev = await w.t.api('POST', `/v1/tenants/${w.a}/events`, {
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
  await page.goto(`${w.t.url}/console/#/t/${w.a}/deliveries?limit=2`);
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
    const c = await w.t.tenant('Gamma Pay');
    const ep = (
      await w.t.api('POST', `/v1/tenants/${c}/endpoints`, {
        body: { url: down.url, policy: 'payments', description: 'pay-hooks' },
      })
    ).body.id;
    const sent = [];
    for (let i = 1; i <= 6; i++)
      sent.push(
        (
          await w.t.api('POST', `/v1/tenants/${c}/events`, {
            body: { event_id: `evt-held-${i}`, type: 'order.created', data: { i } },
          })
        ).body.deliveries[0].id as string,
      );
    // Five failed deliveries open the tenant breaker (payments); the retries that come due are held, no attempt spent.
    // A delivery accepted after the breaker opened is held before its first attempt: take one that has failed attempts.
    const held = await until(
      () => w.t.api('GET', `/v1/tenants/${c}/deliveries?status=held`),
      (r) => r.body.items?.some((d: { attempt_count: number }) => d.attempt_count > 0),
      { timeoutMs: 60_000 },
    );
    const id = held.body.items.find((d: { attempt_count: number }) => d.attempt_count > 0).id as string;
    assert.ok(sent.includes(id));
    const { page } = await browser(tc);
    await signIn(page, ADMIN_TOKEN);
    await page.locator('#tenants').waitFor();
    await page.goto(`${w.t.url}/console/#/t/${c}/deliveries/${id}`);
    await page.locator('#delivery-timeline').waitFor();
    await page.locator('#delivery-status .held').waitFor();
    assert.ok((await page.locator('#delivery-timeline .mark.delivery_failure').count()) >= 1, 'the failed attempts');
    assert.equal(await page.locator('#delivery-timeline rect.band.held').count(), 1);
    // The current held band begins when the hold began (held_since), after the wait for the retry that was held.
    const detail = await w.t.api('GET', `/v1/tenants/${c}/deliveries/${id}`);
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
    await w.t.api('POST', `/v1/tenants/${c}/breaker/reset`);
    const done = await until(
      () => w.t.api('GET', `/v1/tenants/${c}/deliveries/${id}`),
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
    // Every attempt was scheduled on the fast ladder (payments; this event is not a money event): drawn under the marks
    // (one label for attempts too close to label apart) and said of each attempt in the list.
    const subs = await page.locator('#delivery-timeline .mark-sub').evaluateAll((es) => es.map((e) => e.textContent));
    assert.ok(subs.length >= 1);
    assert.deepEqual(subs, Array(subs.length).fill('fast'));
    const listed = await page.locator('#delivery-timeline .timeline-list li').allInnerTexts();
    assert.equal(listed.filter((x) => /attempt #\d+ \(fast ladder\)/.test(x)).length, done.body.attempts.length);
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
    await w.t.api('PATCH', `/v1/tenants/${c}/endpoints/${ep}`, { body: { status: 'paused' } });
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
  const delivery = await failedDelivery(w.a, 'evt-phone-1');
  const { page } = await browser(tc);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${w.t.url}/console/`);
  await page.getByLabel('Admin token or tenant API key').waitFor();
  await checkPage(page, 'sign-in');
  await shot(page, 'phone-sign-in');
  await page.getByLabel('Admin token or tenant API key').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#tenants').waitFor();
  await checkPage(page, 'tenants');
  await shot(page, 'phone-tenants');
  const pages: Array<[string, string, string]> = [
    ['overview', `#/t/${w.a}`, '#minute-chart'],
    ['deliveries', `#/t/${w.a}/deliveries`, '#deliveries'],
    ['delivery', `#/t/${w.a}/deliveries/${delivery}`, '#delivery-timeline'],
    ['endpoints', `#/t/${w.a}/endpoints`, '#endpoints'],
    ['endpoint', `#/t/${w.a}/endpoints/${w.endpointA}`, '#breaker-state'],
    ['event-types', `#/t/${w.a}/event-types`, 'main h1'],
    ['policy-preview', `#/t/${w.a}/policy-preview`, '#sim-responses'],
  ];
  for (const [name, hash, ready] of pages) {
    await page.goto(`${w.t.url}/console/${hash}`);
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
    await page.goto(`${w.t.url}/console/`);
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
    await page.goto(`${w.t.url}/console/#/t/${w.a}/deliveries`);
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
