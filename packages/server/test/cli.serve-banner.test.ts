// `hookline serve`'s banner (docs/cli.md#serve): where the API listens, the database, and the console's address.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { within } from '@hookline/core/testing';
import { consoleDir } from '../src/console/console-routes.ts';
import { startCli } from './cli-harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'hookline-banner-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('the banner prints the console URL (served there), or says the console is not built', async (t) => {
  const run = startCli(['serve', '--db', join(dir, 'hookline.db'), '--port', '0', '--host', '127.0.0.1'], {
    HOOKLINE_ADMIN_TOKEN: 'banner-admin-token-0123456789',
    HOOKLINE_DATA_DIR: join(dir, 'data'),
  });
  t.after(() => run.child.kill('SIGKILL'));
  const listening = await within('the listening line', 30_000, run.stderrLine(/^hookline .* on http:\/\//));
  const url = /(http:\/\/\S+)/.exec(listening)![1]!;
  const line = await within('the console line', 30_000, run.stderrLine(/^console {3}/));
  if (consoleDir() === null) {
    // A checkout that was never built (npm ci builds it): the banner says what to do instead of a dead link.
    assert.equal(line, 'console   not built (npm run build)');
    t.diagnostic(
      'packages/console/dist is not built here: only the "not built" form ran (packed.install tests the URL)',
    );
    return;
  }
  assert.equal(line, `console   ${url}/console/`);
  const page = await fetch(`${url}/console/`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
});
