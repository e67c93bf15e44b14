// The generated SQL module matches the .sql files it is made from (regenerate: npm run receiver:sql).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { renderSqlModule, SQL_MODULE_PATH } from '../../../scripts/receiver-sql.ts';

test('sql-files.generated.ts is current with the .sql files', () => {
  assert.equal(readFileSync(SQL_MODULE_PATH, 'utf8'), renderSqlModule(), 'stale: run npm run receiver:sql');
});
