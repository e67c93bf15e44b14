// One settings surface: `hookline endpoints set` changes every field the API's endpoint PATCH takes (but the signing,
// fixed at creation), refuses a flag that is no setting, and `--url` is the receiver's there; the API's is --api-url.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SET_FLAGS, type SettingValues, settingsBody } from '../src/cli/commands/endpoint-settings.ts';
import { type CliRun, json, runCli, runMain } from './cli-harness.ts';
import { ADMIN_TOKEN, startReceiver, startTestServer } from './server-harness.ts';

function assertUsage(r: CliRun, pattern: RegExp, what: string): void {
  assert.equal(r.code, 2, `${what}: exit code; stderr: ${r.stderr}`);
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `${what}: one line, got:\n${r.stderr}`);
  assert.match(lines[0], pattern, what);
}

test("the flags of 'endpoints set' cover every field of the PATCH body but signing", () => {
  const api = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
  const patchable = Object.keys(api.components.schemas.UpdateEndpointRequest.properties).sort();
  // One valid value per flag; --header and --clear-headers are two ways to one field, so they go in two calls.
  const sample: Record<string, string | boolean | string[]> = {
    url: 'https://example.com/h',
    description: 'd',
    'event-types': 'a.b',
    policy: 'strict',
    scheme: 'standard',
    timeout: '5s',
    'max-concurrency': '3',
    'rate-limit': '7',
    status: 'active',
    ordering: 'key',
    'on-failure': 'block',
    filter: 'none',
    header: ['X-A: 1'],
    'clear-headers': true,
    'catch-up': true,
    // Any readable file: only the server looks inside the PEM.
    proxy: 'eu',
    'client-cert': fileURLToPath(import.meta.url),
    'client-key': fileURLToPath(import.meta.url),
    'oauth2-token-url': 'https://auth.example/token',
    'oauth2-client-id': 'hookline',
    'oauth2-client-secret': 's3cret',
    'oauth2-scope': 'webhooks',
    'oauth2-audience': 'https://api.example',
  };
  const { header, ...rest } = Object.fromEntries(SET_FLAGS.map((f) => [f, sample[f]]));
  assert.equal(SET_FLAGS.length, Object.keys(sample).length, 'every settable flag has a sample value');
  const fields = new Set([
    ...Object.keys(settingsBody('endpoints set', rest as SettingValues)),
    ...Object.keys(settingsBody('endpoints set', { header } as SettingValues)),
  ]);
  assert.deepEqual(
    [...fields].sort(),
    patchable.filter((f) => f !== 'signing'),
  );
});

test('endpoints set changes URL, subscriptions, policy, timeout and the rest; refusals are one line', async (t) => {
  const srv = await startTestServer();
  const rx = await startReceiver();
  t.after(async () => {
    await rx.close();
    await srv.close();
  });
  const env = { HOOKLINE_URL: srv.url, HOOKLINE_TOKEN: ADMIN_TOKEN };
  const tenant = await srv.tenant();
  const cli = (...args: string[]) => runMain([...args, '--tenant', tenant], env);

  const added = await cli('endpoints', 'add', `${rx.url}/old`, '--json');
  assert.equal(added.code, 0, added.stderr);
  const id = json(added).id as string;

  const set = await cli(
    'endpoints',
    'set',
    id,
    '--url',
    `${rx.url}/new`,
    '--description',
    'orders, v2',
    '--event-types',
    'order.*, refund.issued',
    '--policy',
    'strict',
    '--scheme',
    'standard',
    '--timeout',
    '7s',
    '--max-concurrency',
    '4',
    '--rate-limit',
    '9',
    '--ordering',
    'key',
    '--on-failure',
    'block',
    '--status',
    'paused',
    '--json',
  );
  assert.equal(set.code, 0, set.stderr);
  const e = json(set);
  assert.deepEqual(
    {
      url: e.url,
      description: e.description,
      event_types: e.event_types,
      policy: e.policy,
      scheme: e.scheme,
      timeout_ms: e.timeout_ms,
      max_concurrency: e.max_concurrency,
      rate_limit_per_s: e.rate_limit_per_s,
      ordering: e.ordering,
      on_failure: e.on_failure,
      status: e.status,
    },
    {
      url: `${rx.url}/new`,
      description: 'orders, v2',
      event_types: ['order.*', 'refund.issued'],
      policy: 'strict',
      scheme: 'standard',
      timeout_ms: 7000,
      max_concurrency: 4,
      rate_limit_per_s: 9,
      ordering: 'key',
      on_failure: 'block',
      status: 'paused',
    },
  );
  const back = await cli(
    'endpoints',
    'set',
    id,
    '--timeout',
    'policy',
    '--event-types',
    '',
    '--status',
    'active',
    '--catch-up',
    '--json',
  );
  assert.equal(back.code, 0, back.stderr);
  assert.deepEqual([json(back).timeout_ms, json(back).event_types, json(back).status], [null, [], 'active']);
  assert.match(json(back).catch_up.replay_id, /^rpl_/);

  assertUsage(await cli('endpoints', 'set', id, '--signing', 'ed25519'), /--signing is fixed at creation/, 'signing');
  assertUsage(
    await cli('endpoints', 'set', id, '--limit', '5'),
    /--limit is not an endpoint setting; it takes --url/,
    'limit',
  );
  assertUsage(await cli('endpoints', 'set', id, '--paused'), /use --status paused/, 'paused');
  assertUsage(await cli('endpoints', 'set', id), /give at least one setting/, 'nothing');
  assertUsage(await cli('endpoints', 'set', id, '--catch-up'), /--catch-up goes with --status active/, 'catch-up');
  assertUsage(await cli('endpoints', 'show', id, '--policy', 'strict'), /--policy does not go with 'show'/, 'show');
  assertUsage(
    await cli('endpoints', 'limit', id, '--url', `${rx.url}/x`),
    /endpoints limit: --url is not the API's address any more; use --api-url/,
    'limit --url',
  );
  // An old script's `--url <the API>` never becomes the endpoint's URL, nor is it taken quietly elsewhere.
  assertUsage(
    await cli('endpoints', 'set', id, '--url', srv.url.replace('127.0.0.1', 'localhost'), '--rate-limit', '5'),
    /is the Hookline API this command talks to; --url sets the endpoint's receiver URL now, and the API's address is --api-url/,
    'set --url api',
  );
  assertUsage(
    await cli('endpoints', 'add', `${rx.url}/z`, '--url', srv.url),
    /receiver's URL is the positional argument, and the API's address is --api-url/,
    'add --url',
  );
  assertUsage(
    await cli('endpoints', 'list', '--url', srv.url),
    /endpoints list: --url is not the API's address any more; use --api-url http/,
    'list --url',
  );
  assertUsage(
    await runMain(['deliveries', 'list', '--url', srv.url, '--tenant', tenant], env),
    /deliveries: --url is not the API's address any more; use --api-url/,
    'deliveries --url',
  );
  // A scheme that is not http(s) is named as the problem (the server allows http here, so it was url_invalid).
  const ftp = await cli('endpoints', 'set', id, '--url', 'ftp://files.example.com/hooks');
  assert.equal(ftp.code, 4, ftp.stderr);
  assert.match(ftp.stderr, /^hookline: url scheme ftp is not supported: .* \(url_scheme_unsupported, HTTP 400\)\n$/);
  const unchanged = json(await cli('endpoints', 'show', id, '--json'));
  assert.deepEqual([unchanged.url, unchanged.rate_limit_per_s], [`${rx.url}/new`, 9]);

  // --api-url is the API's address, through the real executable.
  const viaFlag = await runCli(['endpoints', 'show', id, '--api-url', srv.url, '--tenant', tenant, '--json'], {
    HOOKLINE_TOKEN: ADMIN_TOKEN,
  });
  assert.equal(viaFlag.code, 0, viaFlag.stderr);
  assert.equal(json(viaFlag).id, id);
});
