import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatRecord, formatTable } from './table.ts';

test('formatTable pads columns, right-aligns numbers, cuts long cells, shows null as -', () => {
  const rows = [
    { id: 'a', n: 1, note: 'short' },
    { id: 'bbbb', n: 120, note: null },
    { id: 'c', n: 7, note: 'a rather long note' },
  ];
  const text = formatTable(rows, [
    { header: 'id', value: (r) => r.id },
    { header: 'n', value: (r) => r.n, align: 'right' },
    { header: 'note', value: (r) => r.note, max: 8 },
  ]);
  assert.equal(text, ['ID      N  NOTE', 'a       1  short', 'bbbb  120  -', 'c       7  a rathe…'].join('\n'));
});

test('formatRecord aligns keys', () => {
  assert.equal(
    formatRecord([
      ['id', 'x'],
      ['status', null],
      ['events', ['a']],
    ]),
    'id:     x\nstatus: -\nevents: ["a"]',
  );
});
