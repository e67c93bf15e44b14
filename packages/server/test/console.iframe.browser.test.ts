// A portal link inside the provider's own app, in a real browser: Chromium shows a page of another site (localhost)
// whose iframe opens the portal link on 127.0.0.1, as a provider's app embeds it (docs/console.md#portal-links).
// The session cookie is then a third-party cookie (SameSite=None; Secure; Partitioned), and the CSP's
// frame-ancestors decides who may frame the console at all.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, type TestContext, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { chromiumMissing as missing, openBrowser, browserTest as opts, shot } from './console-browser.ts';
import { startTestServer, type TestServer } from './server-harness.ts';

// `localhost` is another site than 127.0.0.1 (what makes the frame cross-site), pinned to IPv4 loopback.
const ARGS = ['--host-resolver-rules=MAP localhost 127.0.0.1'];

/** The provider's app: one page that frames whatever `?src=` names. */
async function providerApp(): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const src = new URL(req.url ?? '/', 'http://localhost').searchParams.get('src') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><title>Provider app</title><h1>Provider app</h1><iframe id="hooks" title="Webhook deliveries" style="width:100%;height:40rem" src="${src.replace(/"/g, '&quot;')}"></iframe>`,
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

let allowed: { server: Server; port: number };
let other: { server: Server; port: number };
let t: TestServer;
let tenant = '';
let endpoint = '';

before(async () => {
  if (missing) return;
  allowed = await providerApp();
  other = await providerApp();
  // Secure cookies, as in production (no --allow-http): Chromium counts http://127.0.0.1 as a secure context.
  t = await startTestServer({
    config: { allowHttp: false, consoleFrameAncestors: `http://localhost:${allowed.port}` },
  });
  tenant = await t.tenant('Gamma Pay');
  // An https URL (plain http is refused without --allow-http); no event is sent, so nothing is ever delivered to it.
  endpoint = (
    await t.api('POST', `/v1/tenants/${tenant}/endpoints`, {
      body: { url: 'https://127.0.0.1:9/hooks', description: 'gamma-hooks' },
    })
  ).body.id;
});

after(async () => {
  await t?.close();
  allowed?.server.close();
  other?.server.close();
});

async function browser(tc: TestContext): Promise<Page> {
  return (await openBrowser(tc, ARGS)).page;
}

async function portalLink(): Promise<string> {
  const made = await t.api('POST', `/v1/tenants/${tenant}/portal-links`);
  assert.equal(made.status, 201, JSON.stringify(made.body));
  return made.body.url as string;
}

/** The console's frame inside the provider's page, once it has loaded something. */
async function consoleFrame(page: Page): Promise<Frame> {
  const handle = await page.locator('#hooks').elementHandle();
  const frame = await handle!.contentFrame();
  assert.ok(frame, 'the iframe has a frame');
  return frame;
}

test(
  'inside a cross-site iframe of an allowed origin the portal signs in and works: pages, and a CSRF-checked POST',
  opts,
  async (tc) => {
    const page = await browser(tc);
    const link = await portalLink();
    await page.goto(`http://localhost:${allowed.port}/?src=${encodeURIComponent(link)}`);
    const frame = await consoleFrame(page);
    await frame.getByRole('heading', { name: 'Gamma Pay — overview' }).waitFor();
    // The frame's next requests carry the session: only a cookie a cross-site frame may keep and send does that.
    await frame.goto(`${t.url}/console/#/t/${tenant}/endpoints/${endpoint}`);
    await frame.getByRole('button', { name: 'Reveal secrets' }).click();
    await frame.locator('#secret', { hasText: 'whsec_' }).waitFor();
    await frame.getByRole('button', { name: 'Rotate secret' }).click();
    await frame.locator('#endpoint-status', { hasText: 'Secret rotated' }).waitFor();
    const secrets = await t.api('GET', `/v1/tenants/${tenant}/endpoints/${endpoint}/secret`);
    assert.equal(secrets.status, 200, JSON.stringify(secrets.body));
    assert.equal(secrets.body.secrets.length, 2, 'the rotation went through: the new secret and the retiring one');
    const cookies = await page.context().cookies(t.url);
    const session = cookies.find((c) => c.name === 'hl_console');
    assert.ok(session, 'the session cookie was kept');
    assert.equal(session.secure, true);
    assert.equal(session.sameSite, 'None');
    assert.equal(session.httpOnly, true);
    await shot(page, 'portal-in-iframe');
  },
);

test('an origin that frame-ancestors does not name cannot show the console', opts, async (tc) => {
  const page = await browser(tc);
  const refused = page.waitForEvent('console', { predicate: (m) => /frame-ancestors/.test(m.text()) });
  await page.goto(`http://localhost:${other.port}/?src=${encodeURIComponent(await portalLink())}`);
  await refused;
  const frame = await consoleFrame(page);
  assert.equal(await frame.getByRole('heading', { name: 'Gamma Pay — overview' }).count(), 0);
  await shot(page, 'portal-in-iframe-refused');
});
