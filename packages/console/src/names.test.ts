import assert from 'node:assert/strict';
import { test } from 'node:test';
import { breakerName, endpointName, ladderName, oldestDue } from './names.ts';

test('an endpoint is named by its description, else its URL', () => {
  assert.equal(endpointName({ description: 'crm', url: 'https://a.example/h' }), 'crm');
  assert.equal(endpointName({ description: '', url: 'https://a.example/h' }), 'https://a.example/h');
});

test("a breaker is named by what it guards, an endpoint's by the endpoint's name", () => {
  const names = new Map([['ep_1', 'crm-hooks']]);
  assert.equal(breakerName('endpoint:ep_1', names), "crm-hooks's breaker");
  assert.equal(breakerName('endpoint:ep_2', names), "ep_2's breaker");
  assert.equal(breakerName('tenant:ten_1', names), "the tenant's breaker");
});

test('nothing due is said in words, not as "— ago"', () => {
  assert.equal(oldestDue(null), 'nothing due');
  assert.equal(oldestDue(0), 'oldest due 0 s ago');
  assert.equal(oldestDue(12_400), 'oldest due 12 s ago');
});

test("a ladder is named with its policy and that policy's steps", () => {
  const policies = [
    { name: 'strict', description: 'fast ladder: 1 attempts; client errors: fail; timeout 10 s; cap 10' },
    {
      name: 'standard',
      description: 'fast ladder: 4 attempts (pauses 5 s, 30 s, 2 min); slow ladder: repeating (pauses 1 h); cap 10',
    },
  ];
  assert.equal(ladderName('strict', 'fast', policies), "the strict policy's fast ladder (1 attempts)");
  assert.equal(ladderName('standard', 'slow', policies), "the standard policy's slow ladder (repeating (pauses 1 h))");
  assert.equal(ladderName('custom', 'fast', policies), "the custom policy's fast ladder");
  assert.equal(ladderName(null, 'fast', policies), 'fast ladder');
});
