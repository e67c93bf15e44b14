// Loads the `.sql` statements (one each, named by file: shared, then per dialect; `{{fragment}}` includes expanded),
// the numbered migrations and PostgreSQL's function files.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Statements both dialects run as they are; a dialect's own folder holds only the ones that differ. */
export const SHARED_SQL_DIR = join(dirname(fileURLToPath(import.meta.url)), 'sql');

/** The subfolder of a SQL folder that holds its fragments (parts of statements, never run alone). */
export const FRAGMENTS = 'fragments';

/** `{ 'claim-due': 'UPDATE …' }` for every `<name>.sql` in `dir`; comment-only header lines are kept (harmless). */
export function loadSqlFolder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.sql')) continue;
    out[file.slice(0, -4)] = readFileSync(join(dir, file), 'utf8');
  }
  return out;
}

/** The fragments a SQL folder's statements may include: `<dir>/fragments/<name>.sql`, without their `--` header lines. */
export function loadFragments(dir: string): Record<string, string> {
  const folder = join(dir, FRAGMENTS);
  if (!existsSync(folder)) return {};
  const out: Record<string, string> = {};
  for (const [name, text] of Object.entries(loadSqlFolder(folder)))
    out[name] = text
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('--'))
      .join('\n')
      .trim();
  return out;
}

/**
 * `{{name}}` in a statement's SQL (not in its comments) stands for the fragment `name`: a condition several statements
 * share is written once. A name no fragment defines is an error at load, not a syntax error at the first run.
 */
export function expandFragments(statement: string, sql: string, fragments: Record<string, string>): string {
  return sql
    .split('\n')
    .map((line) =>
      line.trimStart().startsWith('--')
        ? line
        : line.replace(/\{\{([a-z0-9-]+)\}\}/g, (_, name: string) => {
            const fragment = fragments[name];
            if (fragment === undefined)
              throw new Error(`${statement}.sql includes {{${name}}}, which no fragments/${name}.sql defines`);
            return fragment;
          }),
    )
    .join('\n');
}

/**
 * Every statement of one dialect: the shared folder's, then `dialectDir`'s, where a file replaces the shared one of
 * the same name, with its fragments expanded (a dialect's fragment replaces the shared one of the same name). Said
 * once: a statement is in a dialect folder only when its text differs (sql-files.test.ts checks).
 */
export function loadStatements(dialectDir: string): Record<string, string> {
  const fragments = { ...loadFragments(SHARED_SQL_DIR), ...loadFragments(dialectDir) };
  const out: Record<string, string> = {};
  for (const [name, sql] of Object.entries({ ...loadSqlFolder(SHARED_SQL_DIR), ...loadSqlFolder(dialectDir) }))
    out[name] = expandFragments(name, sql, fragments);
  return out;
}

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Numbered, forward-only migrations: `001_initial.sql`, `002_…`. */
export function loadMigrations(dir: string): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 3)), name: f.slice(4, -4), sql: readFileSync(join(dir, f), 'utf8') }));
}

export interface FunctionFile {
  /** The file's name without `.sql`: the function's name without `hookline_`, `_` written `-` (`claim-due`). */
  file: string;
  /** The function it defines (`hookline_claim_due`). */
  name: string;
  sql: string;
}

/** `functions/<name>.sql`: one `CREATE OR REPLACE FUNCTION` each, in file order (postgres/migrate.ts applies them). */
export function loadFunctions(dir: string): FunctionFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => {
      const sql = readFileSync(join(dir, f), 'utf8');
      const name = /^CREATE OR REPLACE FUNCTION (\w+)\(/m.exec(sql)?.[1];
      if (name === undefined) throw new Error(`functions/${f} has no CREATE OR REPLACE FUNCTION`);
      return { file: f.slice(0, -4), name, sql };
    });
}
