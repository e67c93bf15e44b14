// `hookline tenants create|list --environment` (docs/rules.md#environments) through main() against a real server.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { json, runCli, runMain } from './cli-harness.ts';
import { ADMIN_TOKEN, startTestServer } from './server-harness.ts';

test('tenants create --environment test mints hk_test_ keys; tenants list --environment filters; tables show the environment', async () => {
  const srv = await startTestServer();
  const env = { HOOKLINE_URL: srv.url, HOOKLINE_TOKEN: ADMIN_TOKEN };
  const run = (...args: string[]) => runMain(args, env);
  try {
    const created = await run('tenants', 'create', '--name', 'Sandbox', '--environment', 'test', '--api-key', '--json');
    assert.equal(created.code, 0, created.stderr);
    const sandbox = json(created);
    assert.equal(sandbox.environment, 'test');
    assert.match(sandbox.api_key.key, /^hk_test_/);
    const live = json(await run('tenants', 'create', '--name', 'Production', '--json'));
    assert.equal(live.environment, 'live', 'live unless asked');

    const human = await run('tenants', 'create', '--name', 'Sandbox Two', '--environment', 'test');
    assert.match(human.stdout, /^environment:\s+test$/m);

    const tests = await run('tenants', 'list', '--environment', 'test');
    assert.equal(tests.code, 0, tests.stderr);
    assert.match(tests.stdout, /^ID\s+NAME\s+ENVIRONMENT\s+OWNERS/m, 'the table has an environment column');
    assert.match(tests.stdout, new RegExp(`^${sandbox.id}\\s+Sandbox\\s+test\\b`, 'm'));
    assert.doesNotMatch(tests.stdout, new RegExp(live.id));
    const lives = json(await run('tenants', 'list', '--environment', 'live', '--json'));
    assert.deepEqual(
      lives.items.map((t: { id: string }) => t.id),
      [live.id],
    );
    assert.match((await run('tenants', 'show', sandbox.id)).stdout, /^environment:\s+test$/m);

    // A wrong value is a one-line usage error before any request; the real executable exits non-zero.
    const wrong = await runCli(['tenants', 'create', '--name', 'X', '--environment', 'staging'], env);
    assert.equal(wrong.code, 2);
    assert.equal(wrong.stderr, "hookline: tenants create: --environment must be test or live, got 'staging'\n");
    const all = json(await run('tenants', 'list', '--json')).items as Array<{ name: string }>;
    assert.deepEqual(
      all.map((t) => t.name),
      ['Sandbox', 'Production', 'Sandbox Two'],
      'nothing was created',
    );
  } finally {
    await srv.close();
  }
});
