// Unit tests of reading required fields and samples from an event type's JSON Schema.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requiredFields, sampleFromSchema } from './contract-sample.ts';

test('required fields are the top-level required names; anything else gives none', () => {
  assert.deepEqual(requiredFields({ type: 'object', required: ['order_id', 'label_id'] }), ['order_id', 'label_id']);
  assert.deepEqual(requiredFields({ type: 'object' }), []);
  assert.deepEqual(requiredFields(true), []);
  assert.deepEqual(requiredFields(null), []);
});

test('a sample fills every required property by type, const, enum and format, nested', () => {
  const schema = {
    type: 'object',
    required: ['order_id', 'qty', 'status', 'shipped_at', 'lines', 'carrier'],
    properties: {
      order_id: { type: 'string', minLength: 8 },
      qty: { type: 'integer', minimum: 2 },
      status: { enum: ['shipped', 'lost'] },
      shipped_at: { type: 'string', format: 'date-time' },
      lines: {
        type: 'array',
        minItems: 1,
        items: { type: 'object', required: ['sku'], properties: { sku: { const: 'A-1' } } },
      },
      carrier: { type: 'object', required: ['name'], properties: { name: { type: ['string', 'null'] } } },
      note: { type: 'string' },
    },
  };
  assert.deepEqual(sampleFromSchema(schema), {
    order_id: 'doctorxx',
    qty: 2,
    status: 'shipped',
    shipped_at: '2026-01-01T00:00:00.000Z',
    lines: [{ sku: 'A-1' }],
    carrier: { name: 'doctor' },
  });
});
