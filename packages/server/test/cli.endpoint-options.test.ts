// `hookline endpoints add|set --filter --header` and `resume --catch-up` against a live server in this process.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { json, runMain } from './cli-harness.ts';
import { ADMIN_TOKEN, startReceiver, startTestServer, until } from './server-harness.ts';

test('endpoints add/set with --filter and --header, resume --catch-up, and one-line usage errors', async () => {
  const srv = await startTestServer();
  const rx = await startReceiver();
  const env = { HOOKLINE_URL: srv.url, HOOKLINE_TOKEN: ADMIN_TOKEN };
  const cli = (...args: string[]) => runMain(args, env);
  try {
    const tenant = json(await cli('tenants', 'create', '--name', 'Opt Co', '--json')).id as string;
    const t = ['--tenant', tenant];
    const added = await cli(
      'endpoints',
      'add',
      rx.url,
      ...t,
      '--filter',
      '{"path":"data.n","gte":2}',
      '--header',
      'X-Tenant: acme',
      '--header',
      'X-Env:live',
      '--json',
    );
    assert.equal(added.code, 0, added.stderr);
    const ep = json(added);
    assert.deepEqual(
      [ep.payload_filter, ep.headers],
      [
        { path: 'data.n', gte: 2 },
        { 'X-Tenant': 'acme', 'X-Env': 'live' },
      ],
    );
    const shown = await cli('endpoints', 'show', ep.id, ...t);
    assert.match(shown.stdout, /payload filter:\s+\{"path":"data.n","gte":2\}/);
    assert.match(shown.stdout, /headers:\s+X-Tenant, X-Env/);

    const set = await cli('endpoints', 'set', ep.id, ...t, '--filter', 'none', '--clear-headers', '--json');
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual([json(set).payload_filter, json(set).headers], [null, {}]);

    const badJson = await cli('endpoints', 'set', ep.id, ...t, '--filter', '{nope');
    assert.equal(badJson.code, 2);
    assert.match(badJson.stderr, /--filter must be JSON/);
    assert.equal(badJson.stderr.trim().split('\n').length, 1);
    const badFilter = await cli('endpoints', 'set', ep.id, ...t, '--filter', '{"path":"n","gt":1}');
    assert.notEqual(badFilter.code, 0);
    assert.match(badFilter.stderr, /invalid_filter|payload_filter is invalid/);
    const badHeader = await cli('endpoints', 'set', ep.id, ...t, '--header', 'X-Webhook-Id: 1');
    assert.notEqual(badHeader.code, 0);
    assert.match(badHeader.stderr, /invalid_header|not allowed/);
    assert.equal((await cli('endpoints', 'set', ep.id, ...t, '--header', 'no-colon')).code, 2);
    assert.equal((await cli('endpoints', 'set', ep.id, ...t)).code, 2);

    assert.equal((await cli('endpoints', 'pause', ep.id, ...t)).code, 0);
    assert.equal((await cli('send', '--type', 'thing.happened', '--data', '{"n":1}', ...t)).code, 0);
    const resumed = await cli('endpoints', 'resume', ep.id, ...t, '--catch-up');
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stdout, /catch-up replay rpl_\w+ selected 1 deliveries/);
    await until(
      () => rx.received.length,
      (n) => n === 1,
      { timeoutMs: 60_000 },
    );
    const again = await cli('endpoints', 'resume', ep.id, ...t, '--catch-up');
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /not paused/);
  } finally {
    await rx.close();
    await srv.close();
  }
});
