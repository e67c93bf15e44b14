import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type JsonSchema, validateContract } from './contract.ts';

const orderShipped: JsonSchema = {
  type: 'object',
  required: ['event_id', 'type', 'occurred_at', 'data'],
  properties: {
    type: { enum: ['order.shipped'] },
    data: {
      type: 'object',
      required: ['order_id', 'label_id'],
      properties: {
        order_id: { type: 'string' },
        note: { type: ['string', 'null'] },
        items: {
          type: 'array',
          items: { type: 'object', required: ['sku'], properties: { qty: { type: 'integer' } } },
        },
      },
    },
  },
};
const valid = { event_id: 'e', type: 'order.shipped', occurred_at: 't', data: { order_id: 'o', label_id: 'l' } };

test('a payload with only the required fields passes; optional and extra fields are allowed', () => {
  assert.equal(validateContract(orderShipped, valid), undefined);
  assert.equal(
    validateContract(orderShipped, {
      ...valid,
      extra: { anything: [1] },
      data: { ...valid.data, note: null, surprise: 1 },
    }),
    undefined,
  );
});

test('a missing required field names its path', () => {
  const { label_id: _, ...data } = valid.data;
  assert.deepEqual(validateContract(orderShipped, { ...valid, data }), {
    kind: 'missing',
    path: 'data.label_id',
    detail: 'required',
  });
  assert.deepEqual(validateContract(orderShipped, { type: 'order.shipped' }), {
    kind: 'missing',
    path: 'event_id',
    detail: 'required',
  });
});

test('wrong types, enums and array items name their path', () => {
  assert.deepEqual(validateContract(orderShipped, { ...valid, data: { ...valid.data, order_id: 42 } }), {
    kind: 'invalid',
    path: 'data.order_id',
    detail: 'expected string, got number',
  });
  assert.equal(validateContract(orderShipped, { ...valid, type: 'order.paid' })?.path, 'type');
  assert.deepEqual(
    validateContract(orderShipped, { ...valid, data: { ...valid.data, items: [{ sku: 'a' }, { qty: 1 }] } })?.path,
    'data.items[1].sku',
  );
  assert.equal(
    validateContract(orderShipped, { ...valid, data: { ...valid.data, items: [{ sku: 'a', qty: 1.5 }] } })?.detail,
    'expected integer, got number',
  );
  assert.deepEqual(validateContract(orderShipped, [1]), {
    kind: 'invalid',
    path: '(root)',
    detail: 'expected object, got array',
  });
  assert.equal(validateContract(orderShipped, { ...valid, data: null })?.detail, 'expected object, got null');
});
