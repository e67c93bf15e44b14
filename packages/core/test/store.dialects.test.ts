// The two dialects run the same statements and migrations, by name: each SQLite statement and migration has a
// PostgreSQL twin, and only the statements a dialect's own store code names (its queue module, PostgreSQL's multi-row
// accept and durability check) stand alone.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadStatements } from '../src/store/sql-files.ts';

const here = dirname(fileURLToPath(import.meta.url));
// The statements a dialect runs: store/sql's shared ones, with its own folder's replacing them by name.
const sqlNames = (dialect: string) => Object.keys(loadStatements(join(here, '../src/store', dialect, 'sql'))).sort();
const migrationNames = (dialect: string) =>
  readdirSync(join(here, '../src/store', dialect, 'migrations'))
    .filter((f) => f.endsWith('.sql'))
    .sort();

// Statements only one dialect's own store code runs (its queue module, PostgreSQL's store and multi-row accept name
// them): the multi-row forms of the hot writes there (PostgreSQL's over unnest; SQLite's per-row statements prepared
// once and bound per record, driver.eachRow), which the other dialect does its own way or not at all, and PostgreSQL's
// check of the settings that make a COMMIT durable (SQLite's driver sets its own pragmas).
const namedIn = (files: string[], other: string) =>
  new Set(
    files
      .flatMap((file) => [
        ...readFileSync(join(here, '../src/store', file), 'utf8').matchAll(
          /\b(?:tx\.(?:all|run)|\.eachRow)(?:<[^>]*>)?\(\s*'([a-z0-9-]+)'/g,
        ),
      ])
      .map((m) => m[1]!)
      .filter((name) => !sqlNames(other).includes(name)),
  );
const postgresOnly = namedIn(
  ['postgres/postgres-store.ts', 'queue/postgres-queue.ts', 'events/postgres-accept.ts'],
  'sqlite',
);
const sqliteOnly = namedIn(['queue/sqlite-queue.ts'], 'postgres');

test('every SQLite statement and migration has a PostgreSQL twin of the same name, and no more', () => {
  assert.deepEqual([...postgresOnly].sort(), [
    'durability-settings',
    'finish-attempts',
    'insert-attempts',
    'insert-deliveries',
    'insert-events',
    'upkeep-settings',
  ]);
  assert.deepEqual([...sqliteOnly].sort(), ['claimed-endpoints', 'finish-attempt-leased', 'insert-attempt-leased']);
  assert.deepEqual(
    sqlNames('postgres').filter((n) => !postgresOnly.has(n)),
    sqlNames('sqlite').filter((n) => !sqliteOnly.has(n)),
  );
  assert.deepEqual(migrationNames('postgres'), migrationNames('sqlite'));
});
