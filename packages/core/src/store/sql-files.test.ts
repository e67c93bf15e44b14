// Every statement the store code names resolves for both dialects (code in a dialect's folder: for its own), no dialect
// file repeats the shared one, and a condition several statements share is written once (fragments, functions).

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  loadFragments,
  loadFunctions,
  loadMigrations,
  loadSqlFolder,
  loadStatements,
  SHARED_SQL_DIR,
} from './sql-files.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DIALECT_DIRS = { sqlite: join(here, 'sqlite', 'sql'), postgres: join(here, 'postgres', 'sql') } as const;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every `db.all('name' …)`, `tx.run<…>('name' …)`, `driver.…` (eachRow too) and `this.run('name' …)` in the store code, by name. */
function statementNamesInCode(): Map<string, string[]> {
  const names = new Map<string, string[]>();
  const call = /\b(?:db|driver|tx|this)\.(?:all|run|eachRow)(?:<[^>]*>)?\(\s*([^,)]*)/g;
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

/** Whether a store file runs on `dialect` only: in its folder, or named for it (`sqlite-queue.ts`). */
function ofDialect(file: string, dialect: string): boolean {
  return file.split('/').some((segment) => segment === dialect || segment.startsWith(`${dialect}-`));
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
      // Code in a dialect's own folder or file (sqlite/…, queue/sqlite-queue.ts) runs only on that dialect.
      const runsHere = files.filter((f) => !Object.keys(DIALECT_DIRS).some((d) => d !== dialect && ofDialect(f, d)));
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

test("{{name}} in a statement (not in its comments) is its folder's fragments/name.sql; an undefined one fails at load", () => {
  const dir = mkdtempSync(join(tmpdir(), 'hl-sql-'));
  try {
    mkdirSync(join(dir, 'fragments'));
    writeFileSync(join(dir, 'fragments', 'is-two.sql'), '-- is-two: a header line, dropped\n(x = 2)\n');
    writeFileSync(
      join(dir, 'pick.sql'),
      '-- pick: {{is-two}} in a comment stays as written\nSELECT x FROM t WHERE {{is-two}} AND {{is-two}}',
    );
    const statements = loadStatements(dir);
    assert.equal(
      statements.pick,
      '-- pick: {{is-two}} in a comment stays as written\nSELECT x FROM t WHERE (x = 2) AND (x = 2)',
    );
    assert.equal(
      Object.keys(statements).length,
      Object.keys(loadSqlFolder(SHARED_SQL_DIR)).length + 1,
      'a fragment is not a statement',
    );
    writeFileSync(join(dir, 'broken.sql'), 'SELECT 1 WHERE {{nowhere}}');
    assert.throws(
      () => loadStatements(dir),
      /broken\.sql includes \{\{nowhere\}\}, which no fragments\/nowhere\.sql defines/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every fragment is included by a statement of its dialect', () => {
  for (const dir of [SHARED_SQL_DIR, ...Object.values(DIALECT_DIRS)]) {
    const raw = Object.values(
      dir === SHARED_SQL_DIR
        ? {
            ...loadSqlFolder(SHARED_SQL_DIR),
            ...loadSqlFolder(DIALECT_DIRS.sqlite),
            ...loadSqlFolder(DIALECT_DIRS.postgres),
          }
        : { ...loadSqlFolder(SHARED_SQL_DIR), ...loadSqlFolder(dir) },
    ).join('\n');
    for (const name of Object.keys(loadFragments(dir)))
      assert.ok(
        raw.includes(`{{${name}}}`),
        `${relative(here, dir)}/fragments/${name}.sql is included by no statement`,
      );
  }
});

// The ordered-key predicate (docs/rules.md#ordered-claim) in one place per dialect: SQLite's fragment key-free,
// PostgreSQL's function hookline_key_free. Its telltale is the comparison of sequence numbers within a key.
const KEY_ORDER = /ordering_seq < (d\.ordering_seq|p_seq)/g;

test('the ordered-key predicate is written once per dialect: SQLite as a fragment, PostgreSQL as a function', () => {
  const spelled = (texts: Record<string, string>) =>
    Object.entries(texts)
      .filter(([, sql]) => sql.replace(/^--.*$/gm, '').match(KEY_ORDER) !== null)
      .map(([name]) => name);
  // No statement file spells it: SQLite's claim-due and next-due-at include it, each for both of their reads.
  for (const dir of [SHARED_SQL_DIR, ...Object.values(DIALECT_DIRS)])
    assert.deepEqual(spelled(loadSqlFolder(dir)), [], `${relative(here, dir)} spells the ordered-key predicate out`);
  const sqlite = loadSqlFolder(DIALECT_DIRS.sqlite);
  for (const name of ['claim-due', 'next-due-at'])
    assert.equal(sqlite[name]!.match(/\{\{key-free\}\}/g)?.length, 2, `sqlite/sql/${name}.sql includes key-free twice`);
  assert.deepEqual(spelled(loadFragments(DIALECT_DIRS.sqlite)), ['key-free']);
  // Expanded, the statements SQLite runs carry it (two comparisons per read, two reads each).
  const expanded = loadStatements(DIALECT_DIRS.sqlite);
  for (const name of ['claim-due', 'next-due-at']) assert.equal(expanded[name]!.match(KEY_ORDER)?.length, 4, name);
  // PostgreSQL: only its function file spells it (and migration 007, which first defined the function; migrations
  // are never edited); its statements and the claim function call it.
  const functions = Object.fromEntries(loadFunctions(join(here, 'postgres', 'functions')).map((f) => [f.file, f.sql]));
  assert.deepEqual(spelled(functions), ['key-free']);
  assert.match(functions['key-free']!, /CREATE OR REPLACE FUNCTION hookline_key_free\(/);
  const pgMigrations = Object.fromEntries(
    loadMigrations(join(here, 'postgres', 'migrations')).map((m) => [`${m.version}_${m.name}`, m.sql]),
  );
  assert.deepEqual(spelled(pgMigrations), ['7_ordered_delivery']);
  const postgres = loadStatements(DIALECT_DIRS.postgres);
  assert.match(postgres['next-due-at']!, /hookline_key_free\(d\.endpoint_id, d\.ordering_key, d\.ordering_seq\)/);
  assert.match(postgres['claim-due']!, /hookline_claim_due\(/);
  assert.equal(functions['claim-due']!.match(/hookline_key_free\(/g)?.length, 3, 'the claim checks keys on each read');
});
