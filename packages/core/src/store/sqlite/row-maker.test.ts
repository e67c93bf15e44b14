import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { rowMaker } from './row-maker.ts';

test('a made row equals the object better-sqlite3 builds: same keys, order and values, the later duplicate winning', () => {
  const db = new Database(':memory:');
  const sql = `SELECT 1 AS a, 'x' AS "b c", NULL AS "q""uote", x'00ff' AS blob, 2.5 AS "ünï", 7 AS a, 'it''s' AS "}; throw 1; //"`;
  const asObject = db.prepare(sql).get() as Record<string, unknown>;
  const raw = db.prepare(sql).raw(true);
  const made = rowMaker(raw.columns().map((c) => c.name))(raw.get() as unknown[]);
  assert.deepEqual(made, asObject);
  assert.deepEqual(Object.keys(made), Object.keys(asObject));
  assert.equal(made.a, 7);
  assert.ok(Buffer.isBuffer(made.blob));
  assert.equal(Object.getPrototypeOf(made), Object.prototype);
  db.close();
});

test('a column named __proto__ is refused rather than setting the prototype', () => {
  assert.throws(() => rowMaker(['id', '__proto__']), /__proto__/);
});
