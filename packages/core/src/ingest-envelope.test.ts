import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { type EventInput, envelopeOf } from './ingest.ts';

test('the spliced envelope and hash equal JSON.stringify of the whole, byte for byte', () => {
  const inputs: EventInput[] = [
    { type: 'a.b', data: { x: 1, s: 'é\u2028"\\', nested: { arr: [1, null, true] } } },
    { type: 't', version: '2', occurred_at: '2026-01-01T00:00:00Z', data: [1, null, 'x'] },
    { type: 't', data: null },
    { type: 'quote"type', data: 'str' },
    { type: 't', data: undefined as unknown },
  ];
  for (const input of inputs) {
    const { body, bodyHash } = envelopeOf(
      input,
      'evt_1',
      input.version ?? '1',
      input.occurred_at ?? '2026-11-30T00:00:00.000Z',
    );
    const expected = JSON.stringify({
      event_id: 'evt_1',
      type: input.type,
      version: input.version ?? '1',
      occurred_at: input.occurred_at ?? '2026-11-30T00:00:00.000Z',
      data: input.data,
    });
    assert.equal(body.toString('utf8'), expected);
    const hash = createHash('sha256')
      .update(JSON.stringify([input.type, input.version ?? null, input.occurred_at ?? null, input.data]))
      .digest('base64url');
    assert.equal(bodyHash, hash);
  }
});
