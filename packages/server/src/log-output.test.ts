import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { type TestContext, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ownChild, until, within } from '@hookline/core/testing';
import { resolveConfig } from './config.ts';
import { serverLogger, usesPrettyLogs } from './log-output.ts';

function capture(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, stdout: { isTTY, write: (c: string) => chunks.push(c) } };
}

test('auto prints JSON lines when stdout is not a terminal and readable lines when it is; json and pretty force one', () => {
  assert.equal(usesPrettyLogs('auto', { isTTY: false, write: () => true }), false);
  assert.equal(usesPrettyLogs('auto', { write: () => true }), false);
  assert.equal(usesPrettyLogs('auto', { isTTY: true, write: () => true }), true);
  assert.equal(usesPrettyLogs('json', { isTTY: true, write: () => true }), false);
  assert.equal(usesPrettyLogs('pretty', { isTTY: false, write: () => true }), true);

  const piped = capture(false);
  serverLogger('info', 'auto', piped.stdout).log('info', 'hookline listening', { url: 'http://127.0.0.1:1' });
  assert.equal(piped.chunks.length, 1);
  assert.deepEqual(
    { ...JSON.parse(piped.chunks[0]), time: 'T' },
    { level: 'info', time: 'T', msg: 'hookline listening', url: 'http://127.0.0.1:1' },
  );

  const terminal = capture(true);
  const logger = serverLogger('info', 'auto', terminal.stdout);
  logger.log('debug', 'below the minimum');
  logger.log('warn', 'not ready', { reason: 'store' });
  assert.equal(terminal.chunks.length, 1, 'written at once, in order with other output');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the terminal's ANSI colour escapes.
  const text = terminal.chunks[0].replace(/\u001b\[[0-9;]*m/g, '');
  assert.match(text, /^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: not ready\n\s+reason: "store"\n$/);
  assert.throws(() => JSON.parse(terminal.chunks[0]));

  const forced = capture(true);
  serverLogger('info', 'json', forced.stdout).log('error', 'x');
  assert.equal(JSON.parse(forced.chunks[0]).level, 'error');
});

test('logFormat comes from --log-format, HOOKLINE_LOG_FORMAT or the file, default auto, validated with one line', () => {
  assert.equal(resolveConfig({ env: {} }).logFormat, 'auto');
  assert.equal(resolveConfig({ env: { HOOKLINE_LOG_FORMAT: 'json' } }).logFormat, 'json');
  assert.equal(
    resolveConfig({ env: { HOOKLINE_LOG_FORMAT: 'json' }, argv: { 'log-format': 'pretty' } }).logFormat,
    'pretty',
  );
  assert.throws(
    () => resolveConfig({ env: { HOOKLINE_LOG_FORMAT: 'yaml' } }),
    /^ConfigError: config logFormat: must be one of auto, json, pretty, got "yaml"$/,
  );
});

/** Runs test/fixtures/buffered-stdout.ts with stdout a pipe; resolves with its stdout once `ready` holds. */
async function bufferedChild(t: TestContext, mode: 'exit' | 'flush') {
  const child = ownChild(
    spawn(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        fileURLToPath(new URL('../test/fixtures/buffered-stdout.ts', import.meta.url)),
        mode,
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
    t.after.bind(t),
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c));
  child.stderr.on('data', (c: Buffer) => (err += c));
  return { child, out: () => out, err: () => err };
}

const attempts = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l).i);

test('JSON lines to a piped stdout are buffered, and none is lost: written when the process exits', async (t) => {
  const c = await bufferedChild(t, 'exit');
  await within('the exit', 20_000, once(c.child, 'exit'));
  assert.deepEqual(attempts(c.out()), [0, 1, 2, 3, 4], c.err());
});

test("the logger's flush (what a stop awaits) writes every buffered line before it resolves", async (t) => {
  const c = await bufferedChild(t, 'flush');
  await until(() => c.out().includes('FLUSHED'), Boolean, { what: 'FLUSHED', timeoutMs: 20_000 });
  c.child.kill('SIGKILL');
  // The child wrote FLUSHED to the same pipe once the flush resolved: every line is before it.
  assert.deepEqual(attempts(c.out().slice(0, c.out().indexOf('FLUSHED'))), [0, 1, 2, 3, 4], c.err());
});
