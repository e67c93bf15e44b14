import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PolicyConfigError } from './config-error.ts';
import { DEFAULT_MONEY_RULES, defineMoneyRules, isMoneyEvent } from './money-rules.ts';

const money = (type: string, data: unknown) => isMoneyEvent(DEFAULT_MONEY_RULES, type, data);

test('payment.status_changed is money when status is paid, settled or refunded', () => {
  for (const status of ['paid', 'settled', 'refunded'])
    assert.equal(money('payment.status_changed', { status }), true, status);
  for (const status of ['amount_mismatch', 'expired', 'cancelled', 'failed', 'pending', 'PAID']) {
    assert.equal(money('payment.status_changed', { status }), false, status);
  }
});

test('withdrawal and exchange status changes are money only when completed', () => {
  for (const type of ['withdrawal.status_changed', 'exchange.status_changed']) {
    assert.equal(money(type, { status: 'completed' }), true, type);
    assert.equal(money(type, { status: 'failed' }), false, type);
    assert.equal(money(type, { status: 'pending' }), false, type);
  }
});

test('refund.completed and refund.reversed are money whatever their data', () => {
  assert.equal(money('refund.completed', {}), true);
  assert.equal(money('refund.reversed', null), true);
});

test('everything else is not money', () => {
  for (const type of [
    'refund.failed',
    'refund.rejected',
    'subscription.status_changed',
    'kyc.status_changed',
    'gateway.status_changed',
    'payment.delivery_proof_reminder',
    'payment.created',
  ]) {
    assert.equal(money(type, { status: 'paid' }), false, type);
  }
});

test('a missing or odd field is not money', () => {
  assert.equal(money('payment.status_changed', {}), false);
  assert.equal(money('payment.status_changed', null), false);
  assert.equal(money('payment.status_changed', 'paid'), false);
  assert.equal(money('payment.status_changed', { status: null }), false);
  assert.equal(money('payment.status_changed', { status: ['paid'] }), false);
  assert.equal(money('payment.status_changed', { payment: { status: 'paid' } }), false);
});

test('fields are dot paths over own properties only', () => {
  const rules = [
    { type: 'order.updated', field: 'order.state', in: ['captured'] },
    { type: 'x', field: 'constructor' },
  ];
  assert.equal(isMoneyEvent(rules, 'order.updated', { order: { state: 'captured' } }), true);
  assert.equal(isMoneyEvent(rules, 'order.updated', { order: { state: 'open' } }), false);
  assert.equal(isMoneyEvent(rules, 'order.updated', { order: 'captured' }), false);
  assert.equal(isMoneyEvent(rules, 'x', {}), false); // not Object.prototype.constructor
  assert.equal(isMoneyEvent(rules, 'x', { constructor: 'yes' }), true); // field without `in`: present is enough
});

test('the rule set is configuration: defineMoneyRules validates with paths', () => {
  const rules = defineMoneyRules([{ type: 'invoice.paid' }, { type: 'payout.changed', field: 'status', in: ['sent'] }]);
  assert.equal(isMoneyEvent(rules, 'invoice.paid', {}), true);
  assert.equal(isMoneyEvent(rules, 'payout.changed', { status: 'sent' }), true);
  assert.equal(isMoneyEvent(rules, 'payment.status_changed', { status: 'paid' }), false);
  const bad: [unknown, string][] = [
    [{}, 'moneyRules: must be an array'],
    [[1], 'moneyRules[0]: must be an object'],
    [[{ type: '' }], 'moneyRules[0].type: must be an event type name'],
    [[{ type: 'a', fields: 'x' }], 'moneyRules[0].fields: unknown key'],
    [[{ type: 'a', in: ['x'] }], 'moneyRules[0].in: needs a field'],
    [[{ type: 'a', field: 'status', in: [] }], 'moneyRules[0].in: must be a non-empty array of strings'],
    [[{ type: 'a', field: 'a..b' }], 'moneyRules[0].field: must be a dot path'],
  ];
  for (const [json, message] of bad) {
    assert.throws(
      () => defineMoneyRules(json),
      (err: unknown) => err instanceof PolicyConfigError && err.message.startsWith(message),
      message,
    );
  }
});
