// Loads a folder of `.sql` files (one statement each, named by file) and the numbered migrations beside them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `{ 'claim-due': 'UPDATE …' }` for every `<name>.sql` in `dir`; comment-only header lines are kept (harmless). */
export function loadSqlFolder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.sql')) continue;
    out[file.slice(0, -4)] = readFileSync(join(dir, file), 'utf8');
  }
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
