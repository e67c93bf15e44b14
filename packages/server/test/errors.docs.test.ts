// docs/errors.md and the error catalog list the same codes with the same status and message, both directions.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ERROR_CATALOG } from '@hookline/core';

const doc = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
const rows = new Map<string, { status: number; message: string }>();
for (const m of doc.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \| (.*) \|$/gm))
  rows.set(m[1], { status: Number(m[2]), message: m[3] });

test('every catalog code is documented with its status and message', () => {
  for (const [code, entry] of Object.entries(ERROR_CATALOG)) {
    assert.ok(rows.has(code), `docs/errors.md lacks ${code}`);
    assert.deepEqual(rows.get(code), { status: entry.status, message: entry.message }, code);
  }
});

test('every documented code is in the catalog', () => {
  assert.ok(rows.size > 0);
  for (const code of rows.keys())
    assert.ok(Object.hasOwn(ERROR_CATALOG, code), `docs/errors.md documents ${code}, which is not in the catalog`);
});
