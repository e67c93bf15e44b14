import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { until, within } from '../testing/deadline.ts';
import { BufferedLogDestination, LOG_BUFFER_BYTES } from './log-destination.ts';
import { isoTimeField, jsonLogger, memoryLogger, pinoLogger } from './logger.ts';

test('jsonLogger writes one JSON object per line: level name, ISO time, msg and the fields, nothing else', () => {
  const lines: string[] = [];
  const before = Date.now();
  const logger = jsonLogger('info', (line) => lines.push(line));
  logger.log('debug', 'below the minimum', { a: 1 });
  logger.log('info', 'attempt', {
    delivery_id: 'dlv_1',
    attempt: 2,
    error_class: null,
    skipped: undefined,
    nested: { s: 'a"\nb' },
  });
  logger.log('error', 'no fields');
  assert.equal(lines.length, 2);
  assert.ok(
    lines.every((l) => l.endsWith('\n') && !l.slice(0, -1).includes('\n')),
    'one line each',
  );
  const [first, second] = lines.map((l) => JSON.parse(l));
  assert.match(first.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.ok(Date.parse(first.time) >= before && Date.parse(first.time) <= Date.now(), 'the time of writing');
  assert.deepEqual(
    { ...first, time: 'T' },
    {
      time: 'T',
      level: 'info',
      msg: 'attempt',
      delivery_id: 'dlv_1',
      attempt: 2,
      error_class: null,
      nested: { s: 'a"\nb' },
    },
  );
  assert.deepEqual(Object.keys(second).sort(), ['level', 'msg', 'time']);
  assert.equal(second.level, 'error');
});

test('jsonLogger levels: warn keeps warn and error only', () => {
  const lines: string[] = [];
  const logger = jsonLogger('warn', (line) => lines.push(line));
  for (const level of ['debug', 'info', 'warn', 'error'] as const) logger.log(level, level);
  assert.deepEqual(
    lines.map((l) => JSON.parse(l).msg),
    ['warn', 'error'],
  );
});

test('memoryLogger keeps lines as objects for assertions', () => {
  const logger = memoryLogger();
  logger.log('warn', 'w', { n: 1 });
  assert.deepEqual(logger.lines, [{ level: 'warn', msg: 'w', n: 1 }]);
});

test("isoTimeField gives toISOString's text for every millisecond, across seconds and back in time", () => {
  const start = Date.UTC(2026, 11, 31, 23, 59, 58, 990);
  for (const t of [...Array.from({ length: 2100 }, (_, i) => start + i), start - 86_400_000, 0, start + 5])
    assert.equal(isoTimeField(t), `,"time":"${new Date(t).toISOString()}"`, String(t));
});

test('a buffered destination holds info lines off the event loop: no write per line, all of them out on flush', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-log-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'logs', 'hookline.log');
  const logger = pinoLogger('info', new BufferedLogDestination(file));
  const read = () => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  for (let i = 0; i < 20; i++) logger.log('info', 'attempt', { n: i });
  // 20 short lines are far below the buffer: nothing was written yet, not even one line.
  assert.ok(20 * 80 < LOG_BUFFER_BYTES);
  assert.equal(read(), '');
  await within('the flush', 5000, logger.flush!());
  const lines = read()
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => [l.msg, l.n]),
    Array.from({ length: 20 }, (_, i) => ['attempt', i]),
  );
  // An info line alone goes out by itself within LOG_FLUSH_MS; a warning at once (both without a flush).
  logger.log('info', 'later');
  await until(() => read().includes('"later"'), Boolean, { what: 'the info line without a flush' });
  logger.log('warn', 'store not ready');
  await until(() => read().includes('store not ready'), Boolean, { what: 'the warning' });
  // More than the buffer holds, in one turn of the event loop: every line out, in order.
  const big = 'x'.repeat(200);
  const n = Math.ceil((3 * LOG_BUFFER_BYTES) / 200);
  for (let i = 0; i < n; i++) logger.log('info', 'bulk', { big, i, text: i % 10 === 0 ? 'é✓'.repeat(i * 100) : '' });
  await logger.flush!();
  const bulk = read()
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((l) => l.msg === 'bulk');
  assert.deepEqual(
    bulk.map((l) => [l.i, l.text]),
    Array.from({ length: n }, (_, i) => [i, i % 10 === 0 ? 'é✓'.repeat(i * 100) : '']),
  );
});
