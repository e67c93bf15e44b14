import assert from 'node:assert/strict';
import { test } from 'node:test';
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
