// The console's Events page in a real browser (docs/console.md): search by type, prefix and payload filter, each event
// with its deliveries, pages by cursor, a bad filter's reason shown, and the NDJSON export link of the selection.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openBrowser, browserTest as opts, shot } from './console-browser.ts';
import { consoleWorld, signIn } from './console-world.ts';
import { until } from './server-harness.ts';

const w = consoleWorld();

test(
  'Events: search by type, prefix and payload filter; pages; a bad filter is explained; export link',
  opts,
  async (tc) => {
    w.answer = 200;
    const events = Array.from({ length: 7 }, (_, i) => ({
      event_id: `inv_${i}`,
      type: i % 2 ? 'invoice.paid' : 'invoice.sent',
      data: { amount: i * 100 },
    }));
    const sent = await w.t.api('POST', `/v1/tenants/${w.a}/events/batch`, { body: { events } });
    assert.equal(sent.body.accepted, 7);
    await w.t.api('POST', `/v1/tenants/${w.b}/events`, {
      body: { event_id: 'inv_other', type: 'invoice.paid', data: {} },
    });
    const last = sent.body.results[6].deliveries[0].id as string;
    await until(
      () => w.t.api('GET', `/v1/tenants/${w.a}/deliveries/${last}`),
      (r) => r.body.status === 'succeeded',
    );

    const { page } = await openBrowser(tc);
    await signIn(w, page, w.keyA);
    await page.getByRole('heading', { name: 'Acme CRM — overview' }).waitFor();
    await page.getByRole('link', { name: 'Events', exact: true }).click();
    await page.getByRole('heading', { name: 'Events' }).waitFor();

    await page.getByLabel('Event id starts with').fill('inv_');
    await page.getByLabel('Payload filter (JSON)').fill('{"path":"data.amount","gte":300}');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('#events-count', { hasText: '4 events' }).waitFor();
    const rows = await page.locator('#events tbody tr').allInnerTexts();
    assert.deepEqual(
      rows.map((r) => r.split(/\s+/)[0]),
      ['inv_3', 'inv_4', 'inv_5', 'inv_6'],
    );
    assert.match(rows[3], /invoice\.sent[\s\S]*succeeded\s+1 attempts/);
    assert.ok(!rows.join('\n').includes('inv_other'), "another tenant's events never show");
    await shot(page, 'events-search');

    // The search is in the URL: a page size of 2 pages through the same selection.
    const hash = new URL(page.url()).hash;
    await page.goto(`${w.t.url}/console/${hash}${hash.includes('?') ? '&' : '?'}limit=2`);
    await page.locator('#events-count', { hasText: '2 events; more on the next page' }).waitFor();
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.locator('#events-count', { hasText: '2 events (a later page)' }).waitFor();
    assert.deepEqual(
      (await page.locator('#events tbody tr').allInnerTexts()).map((r) => r.split(/\s+/)[0]),
      ['inv_5', 'inv_6'],
    );

    const href = await page.locator('#events-export').getAttribute('href');
    assert.ok(href);
    const exported = await page.evaluate(async (h) => (await fetch(h)).text(), href);
    assert.deepEqual(
      exported
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).event_id),
      ['inv_3', 'inv_4', 'inv_5', 'inv_6'],
    );

    await page.getByLabel('Payload filter (JSON)').fill('{"path":"amount","gte":1}');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText(/payload_filter is invalid at \/path/).waitFor();
    await page.getByLabel('Event type').fill('invoice.paid');
    await page.getByLabel('Payload filter (JSON)').fill('');
    await page.getByLabel('Event id starts with').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    // The page size (limit=2) stays in the URL with the new search.
    await page.locator('#events-count', { hasText: '2 events; more on the next page' }).waitFor();
    assert.deepEqual(
      (await page.locator('#events tbody tr').allInnerTexts()).map((r) => r.split(/\s+/).slice(0, 2).join(' ')),
      ['inv_1 invoice.paid', 'inv_3 invoice.paid'],
    );
  },
);
