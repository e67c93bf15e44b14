import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isoTimeField, jsonLogger, memoryLogger } from './logger.ts';

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
