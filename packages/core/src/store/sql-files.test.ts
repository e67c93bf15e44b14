// Every statement the store code names resolves for both dialects (code in a dialect's folder: for its own), and no dialect file repeats the shared one.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadSqlFolder, loadStatements, SHARED_SQL_DIR } from './sql-files.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DIALECT_DIRS = { sqlite: join(here, 'sqlite', 'sql'), postgres: join(here, 'postgres', 'sql') } as const;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every `db.all('name' …)`, `tx.run<…>('name' …)`, `driver.…` and `this.run('name' …)` in the store code, by name. */
function statementNamesInCode(): Map<string, string[]> {
  const names = new Map<string, string[]>();
  const call = /\b(?:db|driver|tx|this)\.(?:all|run)(?:<[^>]*>)?\(\s*([^,)]*)/g;
  for (const file of sourceFiles(here)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(call)) {
      const arg = m[1]!.trim();
      const literal = /^'([a-z0-9-]+)'$/.exec(arg);
      // A statement named by a variable would escape this list: the store names its statements literally.
      if (!literal) {
        if (file.endsWith('sqlite-driver.ts') && /^(name|n)$/.test(arg)) continue; // the driver's own pass-through
        assert.fail(`${relative(here, file)} names a statement by ${arg}, not by a literal: this test cannot see it`);
      }
      names.set(literal[1]!, [...(names.get(literal[1]!) ?? []), relative(here, file)]);
    }
  }
  return names;
}

test('the store code names statements, and every one resolves for SQLite and PostgreSQL', () => {
  const used = statementNamesInCode();
  assert.ok(
    used.size >= 50,
    `found only ${used.size} statement names: the call-site pattern no longer matches the code`,
  );
  for (const [dialect, dir] of Object.entries(DIALECT_DIRS)) {
    const statements = loadStatements(dir);
    for (const [name, files] of used) {
      // Code in a dialect's own folder (e.g. sqlite/sqlite-sql-store.ts) runs only on that dialect.
      const runsHere = files.filter(
        (f) => !Object.keys(DIALECT_DIRS).some((d) => d !== dialect && f.startsWith(`${d}/`)),
      );
      if (runsHere.length === 0) continue;
      const file = runsHere.join(', ');
      assert.equal(
        typeof statements[name],
        'string',
        `${file} uses ${name}, which ${dialect} does not have (no ${name}.sql in store/sql or store/${dialect}/sql)`,
      );
    }
  }
});

test('every statement file is used by the store code', () => {
  const used = statementNamesInCode();
  const files = new Set([
    ...Object.keys(loadSqlFolder(SHARED_SQL_DIR)),
    ...Object.keys(loadSqlFolder(DIALECT_DIRS.sqlite)),
    ...Object.keys(loadSqlFolder(DIALECT_DIRS.postgres)),
  ]);
  const unused = [...files].filter((name) => !used.has(name)).sort();
  assert.deepEqual(unused, [], 'statement files no code runs');
});

test('a dialect file differs from the shared one it replaces (identical statements live once, in store/sql)', () => {
  const shared = loadSqlFolder(SHARED_SQL_DIR);
  assert.ok(Object.keys(shared).length > 0, 'store/sql holds the shared statements');
  for (const [dialect, dir] of Object.entries(DIALECT_DIRS)) {
    for (const [name, sql] of Object.entries(loadSqlFolder(dir))) {
      assert.notEqual(
        sql,
        shared[name],
        `store/${dialect}/sql/${name}.sql is byte-identical to store/sql/${name}.sql: delete the dialect copy`,
      );
    }
  }
  // Two dialect files with the same text are the same statement too: it belongs in store/sql.
  const sqlite = loadSqlFolder(DIALECT_DIRS.sqlite);
  for (const [name, sql] of Object.entries(loadSqlFolder(DIALECT_DIRS.postgres))) {
    assert.notEqual(sql, sqlite[name], `${name}.sql is the same for SQLite and PostgreSQL: move it to store/sql`);
  }
});

test('a dialect file replaces the shared statement of the same name', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hl-sql-'));
  try {
    const someShared = Object.keys(loadSqlFolder(SHARED_SQL_DIR))[0]!;
    const own = `-- ${someShared} for this dialect\nSELECT 1`;
    writeFileSync(join(dir, `${someShared}.sql`), own);
    writeFileSync(join(dir, 'only-here.sql'), 'SELECT 2');
    const statements = loadStatements(dir);
    assert.equal(statements[someShared], own);
    assert.equal(statements['only-here'], 'SELECT 2');
    assert.equal(Object.keys(statements).length, Object.keys(loadSqlFolder(SHARED_SQL_DIR)).length + 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
