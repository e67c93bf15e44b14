import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatTraceparent, parseTraceparent, traceContextOf } from './trace-context.ts';

const T = '4bf92f3577b34da6a3ce929d0e0e4736';
const S = '00f067aa0ba902b7';

test('a W3C traceparent parses; malformed, version ff, all-zero ids and extra fields on version 00 do not', () => {
  assert.deepEqual(parseTraceparent(`00-${T}-${S}-01`), { traceId: T, spanId: S, flags: 1 });
  for (const bad of [
    '',
    `00-${T}-${S}`,
    `00-${T.toUpperCase()}-${S}-01`,
    `ff-${T}-${S}-01`,
    `00-${'0'.repeat(32)}-${S}-01`,
    `00-${T}-${'0'.repeat(16)}-01`,
    `00-${T}-${S}-01-extra`,
    `00-${T}x-${S}-01`,
  ])
    assert.equal(parseTraceparent(bad), null, bad);
  // A later version may carry more fields; what is stored and sent on is version 00.
  assert.deepEqual(traceContextOf(`01-${T}-${S}-03-more`, null), { traceparent: `00-${T}-${S}-03`, tracestate: null });
});

test('tracestate is kept only beside a valid traceparent, and only when it is printable and at most 512 characters', () => {
  assert.deepEqual(traceContextOf(`00-${T}-${S}-00`, 'a=1,b=2'), {
    traceparent: `00-${T}-${S}-00`,
    tracestate: 'a=1,b=2',
  });
  assert.equal(traceContextOf('garbage', 'a=1'), null);
  assert.equal(traceContextOf(`00-${T}-${S}-01`, 'x'.repeat(512))?.tracestate, 'x'.repeat(512));
  assert.equal(traceContextOf(`00-${T}-${S}-01`, 'x'.repeat(513))?.tracestate, null);
  assert.equal(traceContextOf(`00-${T}-${S}-01`, 'a=\n1')?.tracestate, null);
  assert.equal(formatTraceparent(T, S, 1), `00-${T}-${S}-01`);
});

test('a traceparent is read trimmed, anchored at both ends; ids may start or end with zeros; tracestate is trimmed', () => {
  assert.deepEqual(parseTraceparent(` 00-${T}-${S}-01 `), { traceId: T, spanId: S, flags: 1 });
  assert.equal(parseTraceparent(undefined), null);
  for (const bad of [`x00-${T}-${S}-01`, `00-${T}-${S}-01x`]) assert.equal(parseTraceparent(bad), null, bad);
  const zeros = { traceId: `0000${T.slice(4, 28)}0000`, spanId: `00${S.slice(2, 14)}00` };
  assert.deepEqual(parseTraceparent(`00-${zeros.traceId}-${zeros.spanId}-01`), { ...zeros, flags: 1 });
  assert.equal(traceContextOf(`00-${T}-${S}-01`, ' a=1 ')?.tracestate, 'a=1');
  assert.equal(traceContextOf(`00-${T}-${S}-01`, '   ')?.tracestate, null);
});
