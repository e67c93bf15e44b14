// Loads the `.sql` statements (one each, named by file: shared, then per dialect) and the numbered migrations.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Statements both dialects run as they are; a dialect's own folder holds only the ones that differ. */
export const SHARED_SQL_DIR = join(dirname(fileURLToPath(import.meta.url)), 'sql');

/** `{ 'claim-due': 'UPDATE …' }` for every `<name>.sql` in `dir`; comment-only header lines are kept (harmless). */
export function loadSqlFolder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.sql')) continue;
    out[file.slice(0, -4)] = readFileSync(join(dir, file), 'utf8');
  }
  return out;
}

/**
 * Every statement of one dialect: the shared folder's, then `dialectDir`'s, where a file replaces the shared one of
 * the same name. Said once: a statement is in a dialect folder only when its text differs (sql-files.test.ts checks).
 */
export function loadStatements(dialectDir: string): Record<string, string> {
  return { ...loadSqlFolder(SHARED_SQL_DIR), ...loadSqlFolder(dialectDir) };
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
