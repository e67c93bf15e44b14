// The endpoint limits through the CLI against a real server: --rate-limit on add, `endpoints limit` to change or clear
// it (docs/rules.md#rate-limit), the effective concurrency in `show`, and bad values refused with one line.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { json, runMain } from './cli-harness.ts';
import { ADMIN_TOKEN, startTestServer } from './server-harness.ts';

test('endpoints add --rate-limit, endpoints limit, show; bad values exit 2 with one line', async (t) => {
  const srv = await startTestServer();
  t.after(() => srv.close());
  const env = { HOOKLINE_URL: srv.url, HOOKLINE_TOKEN: ADMIN_TOKEN };
  const tenant = await srv.tenant();
  const cli = async (...args: string[]) => runMain([...args, '--tenant', tenant], env);

  const added = await cli(
    'endpoints',
    'add',
    'http://127.0.0.1:9/hook',
    '--rate-limit',
    '50',
    '--max-concurrency',
    '8',
    '--json',
  );
  assert.equal(added.code, 0, added.stderr);
  const ep = json(added).endpoint ?? json(added);
  assert.deepEqual([ep.rate_limit_per_s, ep.max_concurrency, ep.effective_concurrency], [50, 8, 8]);
  const shown = await cli('endpoints', 'show', ep.id);
  assert.match(shown.stdout, /rate limit:\s+50\/s/);
  assert.match(shown.stdout, /effective concurrency:\s+8/);

  const changed = await cli('endpoints', 'limit', ep.id, '--rate-limit', '5', '--json');
  assert.equal(changed.code, 0, changed.stderr);
  assert.equal(json(changed).rate_limit_per_s, 5);
  const cleared = await cli('endpoints', 'limit', ep.id, '--rate-limit', 'off', '--json');
  assert.equal(json(cleared).rate_limit_per_s, null);
  assert.match((await cli('endpoints', 'show', ep.id)).stdout, /rate limit:\s+none/);

  for (const args of [
    ['endpoints', 'limit', ep.id, '--rate-limit', '0'],
    ['endpoints', 'limit', ep.id, '--rate-limit', 'fast'],
    ['endpoints', 'limit', ep.id],
    ['endpoints', 'add', 'http://127.0.0.1:9/x', '--rate-limit', '10001'],
  ]) {
    const r = await cli(...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});
