import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatTable } from './table.ts';
import { ATTEMPT_COLUMNS } from './views.ts';

test("an attempt's row names its ladder and how long it was held before it ran", () => {
  const text = formatTable(
    [
      {
        n: 1,
        started_at: '2026-03-02T10:00:00.000Z',
        trigger: 'scheduled',
        ladder: 'fast',
        outcome: 'delivery_failure',
        response_status: 503,
        duration_ms: 12,
        held_from: null,
        held_until: null,
      },
      {
        n: 2,
        started_at: '2026-03-02T10:05:00.000Z',
        trigger: 'probe',
        ladder: 'fast',
        outcome: 'success',
        response_status: 200,
        duration_ms: 8,
        held_from: '2026-03-02T10:00:01.000Z',
        held_until: '2026-03-02T10:05:00.000Z',
      },
      {
        n: 3,
        started_at: '2026-03-02T11:00:00.000Z',
        trigger: 'replay',
        ladder: null,
        outcome: 'success',
        response_status: 200,
        duration_ms: 8,
        held_from: null,
        held_until: null,
      },
    ],
    ATTEMPT_COLUMNS,
  );
  const [head, first, second, third] = text.split('\n');
  assert.match(head, /TRIGGER\s+LADDER\s+HELD\s+RESPONSE/);
  assert.match(first, /scheduled\s+fast\s+-\s+503/);
  assert.match(second, /probe\s+fast\s+4m 59s\s+200/);
  assert.match(third, /replay\s+-\s+-\s+200/, 'an attempt recorded before ladders were kept');
});
