// parseJsonBody: depth bound without recursion, lone surrogates located by JSON Pointer, UTF-8 only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HooklineError } from '@hookline/core';
import { MAX_JSON_DEPTH, parseJsonBody } from './json-body.ts';

const refusal = (text: string | Buffer) => {
  try {
    parseJsonBody(Buffer.isBuffer(text) ? text : Buffer.from(text));
  } catch (err) {
    assert.ok(err instanceof HooklineError);
    return { code: err.code, message: err.message };
  }
  return null;
};

test('nesting up to the bound parses; one more level and 500,000 levels are json_too_deep', () => {
  const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);
  assert.equal(refusal(nest(MAX_JSON_DEPTH)), null);
  assert.equal(refusal(nest(MAX_JSON_DEPTH + 1))?.code, 'json_too_deep');
  assert.equal(refusal(nest(500_000))?.code, 'json_too_deep');
  assert.equal(
    refusal(`{"a":${'{"b":'.repeat(MAX_JSON_DEPTH)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`)?.code,
    'json_too_deep',
  );
});

test('a lone surrogate is named by its JSON Pointer, keys escaped; pairs are fine', () => {
  assert.equal(
    refusal('{"a/b":[0,{"~k":"\\ud800"}]}')?.message,
    'body holds a lone surrogate at /a~1b/1/~0k; strings must be well-formed Unicode',
  );
  assert.equal(
    refusal('{"x\\udfff":1}')?.message,
    'body holds a lone surrogate at /x\ufffd; strings must be well-formed Unicode',
  );
  assert.equal(refusal('"\\udbff"')?.code, 'json_invalid_unicode');
  assert.equal(refusal('{"ok":"\\ud83d\\ude00"}'), null);
});

test('empty is no body; bad JSON and bytes that are not UTF-8 are invalid_json', () => {
  assert.equal(parseJsonBody(Buffer.alloc(0)), undefined);
  assert.equal(refusal('{"a":')?.code, 'invalid_json');
  assert.equal(refusal(Buffer.from([0x22, 0xc3, 0x28, 0x22]))?.code, 'invalid_json');
  assert.deepEqual(parseJsonBody(Buffer.from('{"é":1}')), { é: 1 });
});
