import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toPositional } from './named-params.ts';

test('names become numbered parameters, one number per distinct name', () => {
  const r = toPositional('SELECT * FROM t WHERE a = :a AND b = :b OR a > :a');
  assert.equal(r.text, 'SELECT * FROM t WHERE a = $1 AND b = $2 OR a > $1');
  assert.deepEqual(r.names, ['a', 'b']);
});

test('casts stay casts, also right after a parameter', () => {
  const r = toPositional('SELECT x::text, :ids::text[], (:n)::bigint');
  assert.equal(r.text, 'SELECT x::text, $1::text[], ($2)::bigint');
  assert.deepEqual(r.names, ['ids', 'n']);
});

test('literals, quoted identifiers, comments and dollar quotes are left alone', () => {
  const sql = [
    '-- header :not_a_param',
    "SELECT 'it''s :lit', \"col:x\", /* :block */ $$ :body $$, $fn$ :tagged $fn$, :real",
    'FROM t -- trailing :c',
  ].join('\n');
  const r = toPositional(sql);
  assert.deepEqual(r.names, ['real']);
  assert.ok(r.text.includes("'it''s :lit'") && r.text.includes('$$ :body $$') && r.text.includes('$fn$ :tagged $fn$'));
  assert.ok(r.text.includes(', $1\nFROM'));
});

test('a positional $1 already in the text is not mistaken for a dollar quote', () => {
  assert.equal(toPositional('SELECT $1, :a').text, 'SELECT $1, $1');
});
