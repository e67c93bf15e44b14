import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { flatLogLine } from './flat-log-line.ts';
import { jsonLogger, type LogLevel } from './logger.ts';

// pino as pinoLogger configures it, with a fixed time: what flatLogLine must print for the same call.
function pinoLine(level: LogLevel, msg: string, fields: object | undefined): string {
  let out = '';
  const p = pino(
    {
      level: 'debug',
      base: null,
      timestamp: () => ',"time":"T"',
      formatters: { level: (label) => ({ level: label }) },
    },
    { write: (s: string) => void (out += s) },
  );
  p[level](fields ?? {}, msg);
  return out;
}
const flat = (level: LogLevel, msg: string, fields: object | undefined) =>
  flatLogLine(`{"level":"${level}","time":"T"`, msg, fields);

const attempt = {
  event_id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  delivery_id: 'dlv_01HZX3V4Q8K2M5N7P9R1S3T5V7',
  attempt: 2,
  endpoint_id: 'ep_1',
  tenant_id: 'ten_1',
  environment: 'live',
  trigger: 'scheduled',
  status: 503,
  outcome: 'delivery_failure',
  error_class: 'status',
  duration_ms: 42,
  next: 'pending',
};

const needEscaping = [
  'a "quoted" word',
  'back\\slash',
  'line\nbreak\r\ttab',
  'nul \u0000 and \u001f, DEL \u007f',
  '"\\',
  '',
  'é ✓ 日本 \u2028 \u2029',
  'emoji 😀 (a surrogate pair) and "a quote"',
  `${'long '.repeat(30)}"quoted" and \\`,
  `${'long '.repeat(30)}\n`,
  'x'.repeat(101),
];

test('a flat line is the text pino prints for the same fields, byte for byte', () => {
  const cases: Array<[string, object | undefined]> = [
    ['the attempt line', attempt],
    ['traced, no status, no error class', { ...attempt, status: null, error_class: null, trace_id: 'a'.repeat(32) }],
    ['a success', { ...attempt, status: 200, outcome: 'success', error_class: null, next: 'succeeded' }],
    ...needEscaping.map((s): [string, object] => [JSON.stringify(s), { ...attempt, error_class: s, [s]: s }]),
    ['numbers', { z: 0, nz: -0, f: 1.5, big: 1e21, small: 1e-7, max: Number.MAX_SAFE_INTEGER, neg: -42 }],
    ['non-finite numbers are null', { nan: Number.NaN, inf: Number.POSITIVE_INFINITY, ninf: -Infinity }],
    ['booleans and null', { t: true, f: false, n: null }],
    ['undefined fields are left out', { a: 1, skipped: undefined, b: 'x', last: undefined }],
    ['integer-like keys come first, as in any object', { b: 1, 2: 'two', a: 2, 1: 'one' }],
    ['fields named like the line own ones', { level: 'x', time: 1, msg: 'dup' }],
    ['no fields', undefined],
    ['empty fields', {}],
    ['an inherited field is not printed', Object.assign(Object.create({ inherited: 1 }), { own: 2 })],
    ['an err string', { err: 'not an Error' }],
  ];
  for (const [what, fields] of cases)
    for (const level of ['debug', 'info', 'warn', 'error'] as const) {
      const line = flat(level, 'attempt', fields);
      assert.equal(line, pinoLine(level, 'attempt', fields), `${what} (${level})`);
      assert.doesNotThrow(() => JSON.parse(line!), what);
    }
  for (const msg of needEscaping) assert.equal(flat('info', msg, attempt), pinoLine('info', msg, attempt), msg);
});

test('fields that are not flat (or that pino reads specially) are left to pino', () => {
  const notFlat: Array<[string, object]> = [
    ['a nested object', { a: 1, nested: { s: 'a"\nb' } }],
    ['an array', { list: [1, 2] }],
    ['an Error field', { err: new Error('boom') }],
    ['an Error as the fields', new Error('boom')],
    ['a bigint', { n: 10n }],
    ['a function', { f: () => 1 }],
    ['a symbol', { s: Symbol('s') }],
    ['a Date', { at: new Date(0) }],
    ['an HTTP request-like object', { method: 'GET', headers: 'h', socket: 's' }],
    ['a lone high surrogate', { s: 'a\ud800b' }],
    ['a lone low surrogate', { s: '\udc00' }],
    ['a lone surrogate in a key', { '\ud83d': 1 }],
  ];
  for (const [what, fields] of notFlat) assert.equal(flat('info', 'attempt', fields), null, what);
  assert.equal(flat('info', 'lone \ud800', {}), null, 'a lone surrogate in msg');
});

test('pinoLogger prints the same lines as pino for flat and other fields alike, at its level', () => {
  const lines: string[] = [];
  const logger = jsonLogger('info', (l) => lines.push(l));
  const calls: Array<[LogLevel, string, object | undefined]> = [
    ['info', 'attempt', attempt],
    ['info', 'attempt', { ...attempt, error_class: 'a "quoted" \\ é\n', trace_id: 'b'.repeat(32) }],
    ['warn', 'nested', { a: { b: [1, 'x'] } }],
    ['error', 'failed', { err: new Error('boom'), at: 1 }],
    ['info', 'lone \ud800', { s: 'x\udfff' }],
    ['debug', 'below the level', { a: 1 }],
    ['info', 'no fields', undefined],
  ];
  for (const [level, msg, fields] of calls) logger.log(level, msg, fields as Record<string, unknown>);
  const untimed = (l: string) => l.replace(/^(\{"level":"\w+"),"time":"[^"]+"/, '$1,"time":"T"');
  const expected = calls.filter(([level]) => level !== 'debug').map(([level, msg, f]) => pinoLine(level, msg, f));
  assert.deepEqual(lines.map(untimed), expected);
  assert.ok(lines.every((l) => /^\{"level":"\w+","time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z",/.test(l)));
});

test('a flat line below the minimum level is not written', () => {
  const lines: string[] = [];
  const logger = jsonLogger('warn', (l) => lines.push(l));
  logger.log('info', 'attempt', attempt);
  logger.log('debug', 'attempt', attempt);
  logger.log('warn', 'attempt', attempt);
  assert.deepEqual(
    lines.map((l) => JSON.parse(l).level),
    ['warn'],
  );
});
