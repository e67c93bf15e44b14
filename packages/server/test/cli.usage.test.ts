// The `hookline` executable's help and its usage errors: one line on stderr, exit 2, never a stack trace.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { runMain as run, runCli } from './cli-harness.ts';

const COMMANDS = [
  'serve',
  'migrate',
  'backup',
  'tenants',
  'endpoints',
  'send',
  'deliveries',
  'replay',
  'tail',
  'breaker',
  'audit',
  'simulate',
];

function assertOneLineUsageError(r: { code: number | null; stdout: string; stderr: string }, pattern: RegExp): void {
  assert.equal(r.code, 2, `exit code; stderr: ${r.stderr}`);
  assert.equal(r.stdout, '');
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line, got:\n${r.stderr}`);
  assert.match(lines[0], /^hookline: /);
  assert.match(lines[0], pattern);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
}

describe('hookline executable', { concurrency: true }, () => {
  it('--help lists every command and the exit codes, exit 0', async () => {
    const r = await runCli(['--help']);
    assert.equal(r.code, 0, r.stderr);
    for (const c of COMMANDS) assert.match(r.stdout, new RegExp(`^  ${c}\\s`, 'm'));
    assert.match(r.stdout, /Exit codes:[\s\S]*2 {2}usage error[\s\S]*5 {2}cannot reach/);
  });

  it('--version prints the version of the installed @hookline/server, exit 0', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const r = await runCli(['--version']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `hookline ${version}\n`);
  });

  it('<command> --help prints the usage, exit 0', async () => {
    const r = await runCli(['simulate', '--help']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /hookline simulate --policy <name> --responses <list>/);
  });

  it('a bad value is a one-line usage error, exit 2', async () => {
    assertOneLineUsageError(
      await runCli(['simulate', '--policy', 'payments', '--responses', '500,teapot']),
      /'teapot' is not a response/,
    );
  });

  it('--limit above the API page size (200) is a one-line usage error, exit 2', async () => {
    for (const cmd of [
      ['deliveries', 'list', '--tenant', 'ten_x'],
      ['endpoints', 'list', '--tenant', 'ten_x'],
      ['tenants', 'list'],
    ]) {
      assertOneLineUsageError(
        await runCli([...cmd, '--limit', '1000']),
        /--limit must be a whole number from 1 to 200/,
      );
    }
  });

  it('an unknown option is a one-line usage error, exit 2', async () => {
    assertOneLineUsageError(await runCli(['deliveries', 'list', '--colour', 'red']), /unknown option '--colour'/);
  });

  it('a bad server setting is a one-line usage error, exit 2', async () => {
    assertOneLineUsageError(await runCli(['serve', '--port', '99999']), /port/);
  });
});

describe('hookline main()', () => {
  it('every command has --help and -h, exit 0', async () => {
    for (const c of COMMANDS) {
      for (const flag of ['--help', '-h']) {
        const r = await run([c, flag]);
        assert.equal(r.code, 0, `${c} ${flag}: ${r.stderr}`);
        assert.match(r.stdout, new RegExp(`Usage:[\\s\\S]*hookline ${c}`), c);
      }
    }
  });

  it('usage errors: no command, unknown command, missing subcommand, missing value, unexpected argument, bad numbers', async () => {
    const none = await run([]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /Usage: hookline <command>/);
    assertOneLineUsageError(await run(['frobnicate']), /unknown command 'frobnicate'/);
    assertOneLineUsageError(await run(['tenants']), /missing subcommand/);
    assertOneLineUsageError(await run(['endpoints', 'explode']), /unknown subcommand 'explode'/);
    assertOneLineUsageError(await run(['send', '--type', 'a.b']), /--data is required/);
    assertOneLineUsageError(
      await run(['send', '--type', 'a.b', '--data', '{nope', '--tenant', 't']),
      /--data is not valid JSON/,
    );
    assertOneLineUsageError(
      await run(['simulate', '--responses', '500', '--seed', 'abc']),
      /--seed must be a whole number/,
    );
    assertOneLineUsageError(await run(['simulate', '--responses', '500', 'extra']), /unexpected argument 'extra'/);
    assertOneLineUsageError(await run(['simulate']), /--responses \(or --scenario\) is required/);
    assertOneLineUsageError(
      await run(['simulate', '--scenario', '/nonexistent/scenario.json']),
      /cannot read scenario file/,
    );
    assertOneLineUsageError(await run(['tail', '--count', '0', '--tenant', 't']), /--count must be a whole number/);
    assertOneLineUsageError(await run(['replay', '--tenant', 't']), /missing <delivery> or --endpoint/);
    assertOneLineUsageError(await run(['deliveries', 'list']), /no tenant: pass --tenant/);
    assertOneLineUsageError(
      await run(['tenants', 'list', '--api-url', 'not a url']),
      /--api-url 'not a url' is not an absolute URL/,
    );
  });

  it('HOOKLINE_URL and HOOKLINE_TENANT come from the environment main() is given', async () => {
    // Nothing listens on port 1: exit 5, and the message names the URL from the environment.
    const r = await run(['deliveries', 'list'], { HOOKLINE_URL: 'http://127.0.0.1:1', HOOKLINE_TENANT: 'ten_X' });
    assert.equal(r.code, 5);
    assert.match(r.stderr, /^hookline: cannot reach the Hookline API at http:\/\/127\.0\.0\.1:1/);
  });

  it('--api-url and --tenant win over HOOKLINE_URL and HOOKLINE_TENANT; a bad HOOKLINE_DEBUG is a usage error', async () => {
    const env = { HOOKLINE_URL: 'not a url', HOOKLINE_TENANT: 'ten_ENV' };
    const r = await run(['deliveries', 'list', '--api-url', 'http://127.0.0.1:1', '--tenant', 'ten_FLAG'], env);
    assert.equal(r.code, 5);
    assert.match(r.stderr, /^hookline: cannot reach the Hookline API at http:\/\/127\.0\.0\.1:1/);
    assertOneLineUsageError(await run(['deliveries', 'list'], env), /--api-url 'not a url' is not an absolute URL/);
    assertOneLineUsageError(
      await run(['tenants', 'list'], { HOOKLINE_DEBUG: 'loud' }),
      /config debug: must be true or false/,
    );
  });
});
