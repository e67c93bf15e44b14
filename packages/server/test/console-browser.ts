// What the console's browser tests share: Debian's Chromium through playwright-core with the flags this machine needs,
// a fresh profile per test (deleted after it), and screenshots under .cache/console-screenshots/ (not committed).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
];
export const SHOTS = join(import.meta.dirname, '..', '..', '..', '.cache', 'console-screenshots');

// Under CI a missing browser is a failure (scripts/services.sh installs it); elsewhere these tests are skipped.
const missing = !existsSync(CHROMIUM);
if (missing && process.env.CI === 'true')
  throw new Error(`${CHROMIUM} is missing: install the chromium package (scripts/services.sh does under CI)`);
/** Options for a browser test: skipped (with the reason) where Chromium is not installed, 90 s at most. */
export const browserTest = { skip: missing ? `${CHROMIUM} is not installed` : false, timeout: 90_000 };
export const chromiumMissing = missing;

/** A fresh browser profile, closed (and deleted) when the test ends; `args` adds to the flags above. */
export async function openBrowser(
  tc: TestContext,
  args: string[] = [],
): Promise<{ page: Page; context: BrowserContext }> {
  mkdirSync(SHOTS, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'hookline-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...ARGS, ...args],
    timeout: 30_000,
  });
  tc.after(async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  });
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return { page, context };
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}
