// Every statement each dialect loads (shared store/sql plus its own folder) compiles against that dialect's migrated
// schema: SQLite prepares it; PostgreSQL runs it with NULL parameters in a rolled-back transaction and must not answer
// a class 42 error (syntax, undefined table/column/function, undeterminable parameter type).

import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { toPositional } from '../src/store/postgres/named-params.ts';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import { LeaseTable } from '../src/store/queue/lease-table.ts';
import { loadMigrations, loadStatements } from '../src/store/sql-files.ts';
import { pgTestDb } from './fixtures/pg-test-db.ts';

const store = join(dirname(fileURLToPath(import.meta.url)), '../src/store');
const db = await pgTestDb();
if (db.skip) console.log(`# SKIPPED store.statements postgres: ${db.skip}`);
after(() => db.cleanup());

test('every SQLite statement prepares against the migrated schema', () => {
  const sqlite = new Database(':memory:');
  try {
    for (const m of loadMigrations(join(store, 'sqlite', 'migrations'))) sqlite.exec(m.sql);
    // The functions the store thread's lease table gives the connection (docs/rules.md#sqlite-leases).
    new LeaseTable().register(sqlite);
    const statements = Object.entries(loadStatements(join(store, 'sqlite', 'sql')));
    assert.ok(statements.length > 0);
    for (const [name, sql] of statements) assert.doesNotThrow(() => sqlite.prepare(sql), `sqlite/${name}`);
  } finally {
    sqlite.close();
  }
});

describe('postgres', { skip: db.skip ?? false }, () => {
  test('every PostgreSQL statement parses, plans and binds against the migrated schema', async () => {
    const schema = `stmts_${process.pid}_${Date.now().toString(36)}`;
    const migrated = await openPostgresStore(db.url!, { schema, poolMax: 1 });
    await migrated.close();
    const c = new pg.Client({ connectionString: db.url!, options: `-c search_path=${schema}` });
    await c.connect();
    const broken: string[] = [];
    try {
      await c.query('BEGIN');
      for (const [name, sql] of Object.entries(loadStatements(join(store, 'postgres', 'sql')))) {
        const s = toPositional(sql);
        await c.query('SAVEPOINT stmt');
        try {
          await c.query({ text: s.text, values: s.names.map(() => null) });
        } catch (err) {
          // NULLs may break a constraint (class 23) or a function's own check; only class 42 means the text is wrong.
          const code = (err as { code?: string }).code ?? '';
          if (code.startsWith('42')) broken.push(`${name}: ${code} ${(err as Error).message}`);
        }
        await c.query('ROLLBACK TO SAVEPOINT stmt');
      }
      await c.query('ROLLBACK');
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
    } finally {
      await c.end();
    }
    assert.deepEqual(broken, []);
  });
});
